import type { RunningServer } from '@scrub/server';
import { latestCode } from '@scrub/test-support/local-server';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { queryClient } from '../../api/query-client';
import { startServiceForPage } from '../../test/local-service';
import { renderScreen } from '../../test/render';

let server: RunningServer;
const EMAIL = `welcome.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';

beforeAll(async () => {
  server = await startServiceForPage('/', { SCRUB_LOG_LEVEL: 'silent' });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** Imported once the service runs: the client takes the page's origin as the API. */
async function renderWelcome() {
  const { default: WelcomePage } = await import('./welcome-page');
  renderScreen(
    <Routes>
      <Route path="/" element={<WelcomePage />} />
      <Route path="/signup" element={<p>The sign-up page</p>} />
    </Routes>,
  );
}

const selectPlanButtons = async () => {
  await waitFor(() => expect(screen.getAllByTestId('plan-card').length).toBeGreaterThan(1));
  return screen.getAllByRole('button', { name: 'Select Plan' });
};

test("every plan card on Welcome has its Select Plan button; a visitor's goes to Sign-up", async () => {
  await renderWelcome();
  const buttons = await selectPlanButtons();
  expect(buttons).toHaveLength(screen.getAllByTestId('plan-card').length);
  fireEvent.click(buttons[0] as HTMLElement);
  await screen.findByText('The sign-up page');
});

test("a paused account's Select Plan on Welcome opens the Account Confirmation modal", async () => {
  const { scrub } = await import('../../api/scrub-client');
  await scrub.auth.signUp({ email: EMAIL, password: PASSWORD });
  await scrub.auth.confirmSignUp({ email: EMAIL, code: await latestCode(server, EMAIL) });
  await scrub.auth.signIn({ email: EMAIL, password: PASSWORD });
  await scrub.account.setPlanStatus('paused');
  queryClient.clear();
  await renderWelcome();
  // The Sign Up banner is for visitors: once it is gone, the page knows the session.
  await waitFor(() => expect(screen.queryByText('Takes 10 Seconds To Register an Account!')).toBeNull());
  fireEvent.click((await selectPlanButtons())[0] as HTMLElement);
  await screen.findByText('Your account is paused: please activate your account first.');
  expect(screen.getByText('Account Confirmation')).toBeTruthy();
});
