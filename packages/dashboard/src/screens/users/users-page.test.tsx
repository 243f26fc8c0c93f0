import type { RunningServer } from '@scrub/server';
import { latestCode } from '@scrub/test-support/local-server';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServiceForPage } from '../../test/local-service';
import { renderScreen } from '../../test/render';

/** A Super Admin (an address in SCRUB_ADMIN_EMAILS) and 24 more accounts: more than one page of 20. */
let server: RunningServer;
const BOSS = `boss.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
const ACCOUNTS = 24;

beforeAll(async () => {
  server = await startServiceForPage('/users', { SCRUB_ADMIN_EMAILS: BOSS, SCRUB_LOG_LEVEL: 'silent' });
  const { scrub } = await import('../../api/scrub-client');
  await scrub.auth.signUp({ email: BOSS, password: PASSWORD });
  await scrub.auth.confirmSignUp({ email: BOSS, code: await latestCode(server, BOSS) });
  await scrub.auth.signIn({ email: BOSS, password: PASSWORD });
  for (let i = 0; i < ACCOUNTS; i++) {
    const email = `client.${String(i).padStart(2, '0')}@example.com`;
    await scrub.admin.users.create({ le: email, lp: PASSWORD, lp_confirm: PASSWORD, ut: 'user' });
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const rows = () => within(screen.getByTestId('users-table')).getAllByRole('row').slice(1);

test('the Users list pages past 20 accounts', async () => {
  const { default: UsersPage } = await import('./users-page');
  renderScreen(<UsersPage />, { path: '/users' });
  await waitFor(() => expect(rows()).toHaveLength(20));
  expect(screen.getByText('Page 1 of 2')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  // 24 clients and the Super Admin: five on the second page, numbered on from the first.
  await waitFor(() => expect(rows()).toHaveLength(ACCOUNTS + 1 - 20));
  expect(within(rows()[0] as HTMLElement).getAllByRole('cell')[0]?.textContent).toBe('21');
  expect(screen.getByText('Page 2 of 2')).toBeTruthy();
});

test("the Admin page's account picker pages past 20 accounts too", async () => {
  const { default: AdminPage } = await import('../admin/admin-page');
  renderScreen(<AdminPage />, { path: '/admin' });
  await waitFor(() => expect(screen.getByTestId('picker-count').textContent).toBe('25 accounts match'));
  expect(screen.getByText('Page 1 of 2')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await waitFor(() => expect(screen.getByText('Page 2 of 2')).toBeTruthy());
});
