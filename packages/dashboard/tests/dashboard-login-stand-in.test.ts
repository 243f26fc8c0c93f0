import type { RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, seriousViolations } from './browser';
import { signUpAndLogIn } from './sign-up';

const PAT = `pat.stand-in.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent' });
  browser = await launchChromium();
  const context = await browser.newContext();
  context.setDefaultTimeout(SLOW.timeout);
  await signUpAndLogIn(await context.newPage(), server, PAT, PASSWORD);
  await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Login at `/login` with the app's chunk (React, Mantine, the shell) held back until `release` is
 * called: what a visitor sees and can do before the app has loaded, on a slow line or a busy machine.
 */
async function loginWithAppHeld(scheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(SLOW.timeout);
  await context.addInitScript(
    (value) => window.localStorage.setItem('mantine-color-scheme-value', value),
    scheme,
  );
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route(/\/assets\/start-app-[^/]*\.js$/, async (route: Route) => {
    await held;
    await route.continue();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/login`);
  await page.getByRole('button', { name: 'Log In' }).waitFor();
  return { context, page, errors, release };
}

/** The stand-in is what shows: the app's root is still hidden. */
const standInShown = (page: Page) => page.locator('#login-stand-in').isVisible();

describe('Login before the app has loaded (the plain-DOM stand-in)', () => {
  test('a visitor types and submits before the app arrives, and is signed in as usual', async () => {
    const { context, page, errors, release } = await loginWithAppHeld();
    await expect(standInShown(page)).resolves.toBe(true);
    await page.getByLabel('Email').fill(PAT);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Remember me').setChecked(false);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('button', { name: 'Log In' }).isDisabled()).resolves.toBe(true);
    release();
    await page.waitForURL(/\/accountInfo/);
    await expect(standInShown(page)).resolves.toBe(false);
    // Remember me was unticked: the session is kept for this tab only.
    const stored = await page.evaluate(() => window.localStorage.getItem('scrub.identity'));
    expect(stored).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a wrong password typed before the app arrives gets the usual message, values kept', async () => {
    const { context, page, release } = await loginWithAppHeld();
    await page.getByLabel('Email').fill(PAT);
    await page.getByLabel('Password').fill('Wrong-pass-1');
    await page.getByRole('button', { name: 'Log In' }).click();
    release();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const said = await alert.textContent();
    expect(said).toMatch(/password/i);
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(PAT);
    // Still on Login, signed out.
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  test('an empty submit before the app arrives shows the usual field messages', async () => {
    const { context, page, release } = await loginWithAppHeld();
    await page.getByRole('button', { name: 'Log In' }).click();
    release();
    await page
      .getByText(/email is required/i)
      .first()
      .waitFor();
    await expect(standInShown(page)).resolves.toBe(false);
    await context.close();
  });

  test('what the app takes over: typed values and the focus; the stand-in passes axe in both schemes', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page, release } = await loginWithAppHeld(scheme);
      expect(await seriousViolations(page), `login stand-in (${scheme})`).toEqual([]);
      await page.getByLabel('Email').fill(PAT);
      await page.getByLabel('Password').focus();
      release();
      await page.locator('#login-stand-in').waitFor({ state: 'detached' });
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe(PAT);
      await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe(
        'password',
      );
      expect(await seriousViolations(page), `login (${scheme})`).toEqual([]);
      await context.close();
    }
  });

  test('Forgot password and Sign up, followed before the app arrives, open in the app without a second page load', async () => {
    const links = [
      { link: 'Forgot password?', path: '/forgot', title: 'Forgot your password?' },
      { link: 'Sign up', path: '/signup', title: 'Create your account' },
    ];
    for (const { link, path, title } of links) {
      const { context, page, errors, release } = await loginWithAppHeld();
      await page.waitForLoadState('load');
      let pageLoads = 0;
      page.on('load', () => {
        pageLoads += 1;
      });
      await page.getByRole('link', { name: link }).click();
      expect(new URL(page.url()).pathname).toBe(path);
      release();
      await page.getByRole('heading', { name: title }).waitFor();
      await expect(page.locator('#login-stand-in').count()).resolves.toBe(0);
      expect(pageLoads, `${link}: no page load`).toBe(0);
      // Back returns to Login, in the app.
      await page.goBack();
      await page.getByRole('button', { name: 'Log In' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(pageLoads).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  test('a visitor with a stored sign-in gets the app at once, with no stand-in', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(PAT);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/accountInfo/);
    await page.goto(`${server.url}/login`);
    await page.waitForURL(/\/accountInfo/);
    await expect(page.locator('#login-stand-in').count()).resolves.toBe(0);
    await context.close();
  });
});
