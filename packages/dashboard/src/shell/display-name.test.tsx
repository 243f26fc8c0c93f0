import type { AuthSession } from '@scrub/sdk';
import type { RunningServer } from '@scrub/server';
import { latestCode } from '@scrub/test-support/local-server';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { queryClient } from '../api/query-client';
import { ProfileForm } from '../screens/account/profile-form';
import { startServiceForPage } from '../test/local-service';
import { renderScreen } from '../test/render';
import { Sidebar } from './sidebar';

let server: RunningServer;
let session: AuthSession;
const EMAIL = `lee.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';

beforeAll(async () => {
  server = await startServiceForPage('/accountInfo', { SCRUB_LOG_LEVEL: 'silent' });
  const { scrub } = await import('../api/scrub-client');
  await scrub.auth.signUp({ email: EMAIL, password: PASSWORD });
  await scrub.auth.confirmSignUp({ email: EMAIL, code: await latestCode(server, EMAIL) });
  await scrub.auth.signIn({ email: EMAIL, password: PASSWORD });
  session = (await scrub.auth.session()) as AuthSession;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

test('a saved display name shows in the sidebar at once, and again after a reload', async () => {
  const { scrub } = await import('../api/scrub-client');
  const user = await scrub.account.get();
  const sidebarName = () => screen.getByTestId('sidebar-name').textContent;
  const page = renderScreen(
    <>
      <Sidebar session={session} onNavigate={() => undefined} />
      <ProfileForm user={user} />
    </>,
  );
  expect(sidebarName()).toBe(EMAIL.split('@')[0]);
  fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Lee Park' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(sidebarName()).toBe('Lee Park'));

  // A reload: nothing remembered in the page, the name read from the service again.
  page.unmount();
  queryClient.clear();
  renderScreen(<Sidebar session={session} onNavigate={() => undefined} />);
  await waitFor(() => expect(sidebarName()).toBe('Lee Park'));
});
