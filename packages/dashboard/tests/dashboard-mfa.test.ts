import type { RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { openScreen, signUp, signUpAndLogIn } from './sign-up';

const TESS = `tess.mfa.${Date.now()}@example.com`;
const BOSS = `boss.mfa.${Date.now()}@example.com`;
const ADA = `ada.mfa.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // Admins must use a second factor; Tess, a customer, may choose to.
  server = await startLocalServer({
    SCRUB_LOG_LEVEL: 'silent',
    SCRUB_ADMIN_EMAILS: BOSS,
    SCRUB_REQUIRE_MFA_FOR: 'admin',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The authenticator app: the code for the 30-second window `offset` windows from now. */
const appCode = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

async function newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(SLOW.timeout);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Log In's first step: e-mail and password. */
async function enterPassword(page: Page, email: string): Promise<void> {
  await openScreen(page, server, '/login');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Log In's second step: a code from the app or a recovery code. */
async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId('account-menu').click();
  await page.getByTestId('sign-out').click();
  await page.waitForURL(/\/login/);
}

/** The secret shown beside the QR code, once the QR code is drawn. */
async function shownSecret(page: Page): Promise<string> {
  await page.getByAltText('QR code to scan with your authenticator app').waitFor();
  const secret = (await page.getByTestId('authenticator-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}

describe('two-step sign-in in Chromium', () => {
  let secret = '';
  let recoveryCodes: string[] = [];

  test('a customer sets up an authenticator app on My Account and sees the recovery codes once', async () => {
    const { context, page, errors } = await newPage();
    await signUpAndLogIn(page, server, TESS, PASSWORD);
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await card.getByRole('button', { name: 'Set up authenticator app' }).click();
    secret = await shownSecret(page);

    // A wrong code is refused, with the reason; the app's code turns it on. The previous window's
    // code (still accepted) leaves the current one unused for the sign-in below.
    await card.getByLabel('Code from the app').fill(appCode(secret) === '000000' ? '111111' : '000000');
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => card.getByRole('alert').textContent(), SLOW).toMatch(/code/i);
    await card.getByLabel('Code from the app').fill(appCode(secret, -1));
    await card.getByRole('button', { name: 'Turn on' }).click();
    const codes = (await card.getByTestId('recovery-codes').textContent()) ?? '';
    recoveryCodes = codes.split('\n');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await card.getByRole('button', { name: 'Turn off' }).waitFor();
    await expect(card.getByTestId('recovery-codes').count()).resolves.toBe(0);

    // After a reload the card still says it is on, and the codes are not shown again.
    await page.reload();
    await card.getByRole('button', { name: 'Turn off' }).waitFor();
    await expect(card.getByTestId('recovery-codes').count()).resolves.toBe(0);
    await signOut(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('sign-in asks for the app code after the password, and takes a recovery code once', async () => {
    expect(secret, 'the enrolment test ran first').not.toBe('');
    const { context, page, errors } = await newPage();
    await enterPassword(page, TESS);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page
      .getByText('Enter the code from your authenticator app, or one of your recovery codes.')
      .waitFor();
    await record(page, 'two-step-sign-in');
    await enterCode(page, appCode(secret) === '123456' ? '654321' : '123456');
    await page
      .getByText('That code was not right. Enter the current code from your authenticator app.')
      .waitFor();
    await enterCode(page, appCode(secret));
    await page.waitForURL(/\/accountInfo/);
    await signOut(page);

    // A recovery code in place of the app's code.
    await enterPassword(page, TESS);
    await enterCode(page, recoveryCodes[0]!);
    await page.waitForURL(/\/accountInfo/);
    await signOut(page);

    // The same recovery code does not work twice.
    await enterPassword(page, TESS);
    await enterCode(page, recoveryCodes[0]!);
    await page.getByText(/That code was not right/).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Sign out everywhere on My Account ends the session in this browser and in another', async () => {
    // Two browsers signed in, the second with a recovery code.
    const here = await newPage();
    const there = await newPage();
    await enterPassword(there.page, TESS);
    await enterCode(there.page, recoveryCodes[1]!);
    await there.page.waitForURL(/\/accountInfo/);
    await enterPassword(here.page, TESS);
    await enterCode(here.page, recoveryCodes[2]!);
    await here.page.waitForURL(/\/accountInfo/);

    const sessions = here.page.getByRole('region', { name: 'Sessions' });
    await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = here.page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await here.page.waitForURL(/\/login/);
    await here.page.getByText('You have been signed out on every device.').waitFor();

    // The other browser's stored session is refused by the service: its next screen is Log In.
    await there.page.reload();
    await there.page.waitForURL(/\/login/);
    await there.page.getByRole('button', { name: 'Log In' }).waitFor();
    expect([...here.errors, ...there.errors]).toEqual([]);
    await here.context.close();
    await there.context.close();
  });

  test('with SCRUB_REQUIRE_MFA_FOR=admin, every admin sets up an app at sign-in and cannot turn it off', async () => {
    const { context, page, errors } = await newPage();
    // BOSS (in SCRUB_ADMIN_EMAILS) is an admin from the first sign-in: it shows a QR code and takes
    // the app's first code before letting them in.
    await signUp(page, server, BOSS, PASSWORD);
    await enterPassword(page, BOSS);
    await page.getByText(/Your role requires two-step sign-in/).waitFor();
    const bossSecret = await shownSecret(page);
    await enterCode(page, appCode(bossSecret, -1));
    await page.waitForURL(/\/accountInfo/);
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => card.getByRole('alert').textContent(), SLOW).toMatch(/role|admin|required/i);

    // BOSS creates a second admin, Ada.
    await openScreen(page, server, '/admin');
    await page.getByRole('heading', { name: 'Admin Page' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(ADA);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Admin', exact: true }).click();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Account created successfully').waitFor();
    await signOut(page);

    // Ada's first sign-in shows a QR code and takes the app's first code before letting her in.
    await enterPassword(page, ADA);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page.getByText(/Your role requires two-step sign-in/).waitFor();
    const adaSecret = await shownSecret(page);
    await record(page, 'two-step-sign-in-setup');
    await enterCode(page, appCode(adaSecret, -1));
    await page.waitForURL(/\/accountInfo/);
    await openScreen(page, server, '/admin');
    await page.getByRole('heading', { name: 'Admin Page' }).waitFor();

    // Her role requires it, so she cannot turn it off.
    await openScreen(page, server, '/accountInfo');
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => card.getByRole('alert').textContent(), SLOW).toMatch(/role|admin|required/i);
    await card.getByRole('button', { name: 'Turn off' }).waitFor();
    await signOut(page);

    // Her next sign-in asks for a code, as for anyone enrolled.
    await enterPassword(page, ADA);
    await page
      .getByText('Enter the code from your authenticator app, or one of your recovery codes.')
      .waitFor();
    await enterCode(page, appCode(adaSecret));
    await page.waitForURL(/\/accountInfo/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
