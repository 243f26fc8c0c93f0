import { readFile } from 'node:fs/promises';
import { MemoryTokenStorage, Scrub } from '@scrub/sdk';
import { applyLedgerEntry, type RunningServer, rotateApiKey } from '@scrub/server';
import { latestCode, startLocalServer } from '@scrub/test-support/local-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `performance.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
const BOSS = `boss.${Date.now()}@example.com`;
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // A verified address in SCRUB_ADMIN_EMAILS is a Super Admin: the one who makes the Agency.
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent', SCRUB_ADMIN_EMAILS: BOSS });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Real traffic on the customer's API key: three single checks (one answered from the cache, one on
 * the customer's own do-not-call list), a batch of two, and a bulk job of three rows streamed as
 * `scrub bulk` does: 8 numbers checked.
 */
async function makeUsage(): Promise<void> {
  const { db } = server.database;
  // The account is made on the session's first call: wait for the screens to have made it.
  const profileOf = () =>
    db.selectFrom('profiles').select('id').where('email', '=', EMAIL).executeTakeFirst();
  await expect.poll(profileOf, SLOW).toBeDefined();
  const profile = (await profileOf())!;
  await applyLedgerEntry(db, { profileId: profile.id, delta: 100, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, profile.id);
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { 'x-api-key': api_key, ...(init.headers as Record<string, string>) },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.text();
  };
  // The customer's own do-not-call list: from now on every check is checked against it.
  await call('/dnc/numbers', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ numbers: ['2024440111'] }),
  });
  await call('/verify?p=2012345678');
  await call('/verify?p=2012345678');
  await call('/verify?p=2024440111');
  await call('/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phones: ['2015550123', '1234567890'] }),
  });
  await call('/bulk/jobs/stream?file_name=leads.csv&phone_col=Phone', {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: 'Name,Phone\r\nAnn,2012340001\r\nBob,2012340002\r\nCid,8005551234\r\n',
  });
}

describe('the Client Performance screen in Chromium', () => {
  test('draws the charts from the usage made, by day and by week, and downloads it as CSV', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);
    await makeUsage();

    await page.getByRole('link', { name: 'Client Performance' }).first().click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Client Performance' }).waitFor();
    const stat = (id: string) => page.getByTestId(id).textContent();
    await expect.poll(() => stat('stat-checks'), SLOW).toBe('8');
    await expect(stat('stat-jobs')).resolves.toBe('1');
    await expect(stat('stat-cached')).resolves.toBe('1');

    // Each chart is drawn from those figures: bars for today's checks by source and credits, a
    // segment per line type seen.
    const checksChart = page.getByTestId('checks-chart');
    await checksChart.locator('.recharts-bar-rectangle path').first().waitFor();
    for (const source of ['API key', 'Batch', 'Bulk rows'])
      await checksChart.getByText(source).first().waitFor();
    await page.getByTestId('line-type-chart').locator('.recharts-pie-sector').first().waitFor();
    expect(
      await page.getByTestId('line-type-chart').locator('.recharts-pie-sector').count(),
    ).toBeGreaterThanOrEqual(2);
    await page.getByTestId('line-type-legend').getByText('Toll free 1').waitFor();
    await page.getByTestId('credits-chart').locator('.recharts-bar-rectangle path').first().waitFor();
    await expect(stat('stat-dnc')).resolves.toMatch(/^\d+\.\d%$/);
    await page.getByTestId('dnc-chart').locator('.recharts-line-dot').first().waitFor();

    // The pointer off the sidebar's button it clicked (a hovered button is not the screen's look).
    await page.getByRole('heading', { name: 'Client Performance' }).hover();
    await record(page, 'client-performance');

    await page.getByText('By week').click();
    await expect
      .poll(() => page.getByTestId('checks-chart').locator('.recharts-bar-rectangle path').count(), SLOW)
      .toBeGreaterThan(0);
    await expect(stat('stat-checks')).resolves.toBe('8');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile(await (await download).path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^Account,Start,Checks,API Key,Dashboard,Batch,Bulk Rows,/);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^${EMAIL.replace(/\./g, '\\.')},\\d{4}-\\d\\d-\\d\\d,8,3,0,2,3,`),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  test("shows an Agency each client's usage and the total, and one client's charts when picked", async () => {
    // An admin makes an Agency; the Agency makes a client, which checks two numbers on its API key.
    const sdk = () =>
      new Scrub({ baseURL: server.url, apiKey: null, tokenStorage: new MemoryTokenStorage() });
    const boss = sdk();
    await boss.auth.signUp({ email: BOSS, password: PASSWORD });
    await boss.auth.confirmSignUp({ email: BOSS, code: await latestCode(server, BOSS) });
    await boss.auth.signIn({ email: BOSS, password: PASSWORD });
    const agencyEmail = `agency.${Date.now()}@example.com`;
    await boss.admin.users.create({ le: agencyEmail, lp: PASSWORD, lp_confirm: PASSWORD, ut: 'agency' });
    const agency = sdk();
    await agency.auth.signIn({ email: agencyEmail, password: PASSWORD });
    const clientEmail = `client.${Date.now()}@example.com`;
    const client = await agency.admin.users.create({
      le: clientEmail,
      lp: PASSWORD,
      lp_confirm: PASSWORD,
      ut: 'user',
    });
    const { db } = server.database;
    await applyLedgerEntry(db, { profileId: client.user_id, delta: 10, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, client.user_id);
    for (const p of ['2012345678', '2012345679']) {
      const res = await fetch(`${server.url}/verify?p=${p}`, { headers: { 'x-api-key': api_key } });
      expect(res.status).toBe(200);
    }

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/login`);
    await page.locator('input[name=email]').fill(agencyEmail);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/accountInfo/);

    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Client Performance' }).waitFor();
    const accounts = page.getByTestId('accounts-table');
    await accounts.getByRole('row', { name: new RegExp(clientEmail.replace(/\./g, '\\.')) }).waitFor();
    await expect(accounts.getByRole('row').last().textContent()).resolves.toMatch(/^Total2/);
    await expect(page.getByTestId('stat-checks').textContent()).resolves.toBe('2');

    await page.getByRole('combobox', { name: 'Client' }).click();
    await page.getByRole('option', { name: new RegExp(clientEmail.replace(/\./g, '\\.')) }).click();
    await page.waitForURL(/\/dashboard\?account=/);
    // One client's usage has no table by account (the agency's usage stays shown until it arrives).
    await page.getByTestId('accounts-table').waitFor({ state: 'detached' });
    await page.getByTestId('checks-chart').locator('.recharts-bar-rectangle path').first().waitFor();
    await expect(page.getByTestId('stat-checks').textContent()).resolves.toBe('2');

    // An admin searches any account by its e-mail and reads its usage.
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL(/\/login/);
    await page.locator('input[name=email]').fill(BOSS);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/accountInfo/);
    await page.goto(`${server.url}/dashboard`);
    const picker = page
      .getByRole('textbox', { name: 'Account' })
      .or(page.getByRole('combobox', { name: 'Account' }));
    await picker.first().click();
    await picker.first().fill(clientEmail.slice(0, 12));
    await page.getByRole('option', { name: new RegExp(clientEmail.replace(/\./g, '\\.')) }).click();
    await page.waitForURL(new RegExp(`/dashboard\\?account=${client.user_id}`));
    await expect.poll(() => page.getByTestId('stat-checks').textContent(), SLOW).toBe('2');
    await page.getByTestId('checks-chart').locator('.recharts-bar-rectangle path').first().waitFor();
    await page.getByRole('heading', { name: 'Client Performance' }).hover();
    await record(page, 'client-performance-admin');
    // Reloaded, the account in the address is named in the picker.
    await page.reload();
    await expect.poll(() => picker.first().inputValue(), SLOW).toBe(clientEmail);
    expect(errors).toEqual([]);
    await context.close();
  });
});
