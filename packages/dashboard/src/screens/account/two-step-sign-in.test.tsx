import type { RunningServer } from '@scrub/server';
import { latestCode } from '@scrub/test-support/local-server';
import { fireEvent, screen } from '@testing-library/react';
import { Secret, TOTP } from 'otpauth';
import { Route, Routes } from 'react-router';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServiceForPage } from '../../test/local-service';
import { renderScreen } from '../../test/render';

/**
 * Two-step sign-in and sign-out everywhere against the real service: set up an app on the account
 * page (the code computed here, as the phone would), sign in with a code, then end every session.
 */
let server: RunningServer;
const EMAIL = `tess.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
let secret = '';
const codeOf = (offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

beforeAll(async () => {
  server = await startServiceForPage('/accountInfo', { SCRUB_LOG_LEVEL: 'silent' });
  const { scrub } = await import('../../api/scrub-client');
  await scrub.auth.signUp({ email: EMAIL, password: PASSWORD });
  await scrub.auth.confirmSignUp({ email: EMAIL, code: await latestCode(server, EMAIL) });
  const { mayBeSignedIn } = await import('../../auth/stored-session-hint');
  expect(mayBeSignedIn()).toBe(false);
  await scrub.auth.signIn({ email: EMAIL, password: PASSWORD });
  // The shell's SDK-free check sees the SDK's stored sign-in (use-session.ts relies on it).
  expect(mayBeSignedIn()).toBe(true);
}, 120_000);
afterAll(() => server?.close());

// Imported once the service runs: the app's client takes the page's origin when it loads.
const screens = async () => ({
  AuthenticatorCard: (await import('./authenticator-card')).AuthenticatorCard,
  SignOutEverywhere: (await import('./sign-out-everywhere')).SignOutEverywhere,
  LoginPage: (await import('../auth/login-page')).default,
});

const typeCode = (label: string, code: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value: code } });

test('sets up an authenticator with a QR code, shows the recovery codes once, and turns on', async () => {
  const { AuthenticatorCard } = await screens();
  renderScreen(<AuthenticatorCard />);
  fireEvent.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));
  expect(await screen.findByAltText('QR code to scan with your authenticator app')).toBeTruthy();
  secret = screen.getByTestId('authenticator-secret').textContent ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  typeCode('Code from the app', codeOf() === '000000' ? '111111' : '000000');
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
  expect((await screen.findByRole('alert')).textContent).toMatch(/code/i);

  typeCode('Code from the app', codeOf(-1));
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
  expect((await screen.findByTestId('recovery-codes')).textContent?.split('\n')).toHaveLength(10);
  fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
  expect(await screen.findByRole('button', { name: 'Turn off' })).toBeTruthy();
  expect(screen.queryByTestId('recovery-codes')).toBeNull();
});

test('sign-in asks for the code after the password, again after a wrong one', async () => {
  const { LoginPage } = await screens();
  renderScreen(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/accountInfo" element={<p>Account page</p>} />
    </Routes>,
    { path: '/login' },
  );
  fireEvent.input(screen.getByRole('textbox', { name: /Email/ }), { target: { value: EMAIL } });
  fireEvent.input(screen.getByLabelText(/Password/), { target: { value: PASSWORD } });
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
  // SRP in jsdom takes a few seconds.
  const slow = { timeout: 20_000 };
  expect(await screen.findByText(/Enter the code from your authenticator app/, {}, slow)).toBeTruthy();
  typeCode('Code', '123456');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect(await screen.findByText(/That code was not right/, {}, slow)).toBeTruthy();
  typeCode('Code', codeOf());
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect(await screen.findByText('Account page', {}, slow)).toBeTruthy();
});

test('sign out everywhere asks first, then ends the session here and on other devices', async () => {
  const { SignOutEverywhere, LoginPage } = await screens();
  const { scrub } = await import('../../api/scrub-client');
  const idToken = await scrub.auth.getIdToken();
  renderScreen(
    <Routes>
      <Route path="/accountInfo" element={<SignOutEverywhere />} />
      <Route path="/login" element={<LoginPage />} />
    </Routes>,
    { path: '/accountInfo' },
  );
  fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
  const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
  fireEvent.click(
    Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Sign out everywhere')!,
  );
  expect(await screen.findByText('You have been signed out on every device.')).toBeTruthy();
  expect(scrub.auth.hasSession()).toBe(false);
  const { mayBeSignedIn } = await import('../../auth/stored-session-hint');
  expect(mayBeSignedIn()).toBe(false);
  const other = await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${idToken}` } });
  expect(other.status).toBe(401);
});
