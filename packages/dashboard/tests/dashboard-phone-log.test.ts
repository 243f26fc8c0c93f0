import { readFile } from 'node:fs/promises';
import type { RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `phonelog.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the Phone log screen in Chromium', () => {
  test('a number tested on the API page is in the log, filtered and downloaded', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);

    // The API page's test check: an invalid number (area code 123) costs nothing.
    await page.goto(`${server.url}/apidoc`);
    await page.getByTestId('generate-key').click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('This is the ONLY time you will see this API key').waitFor();
    await page.getByTestId('test-phone').fill('1234567890');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByTestId('test-result').waitFor();

    await page.getByRole('link', { name: 'Phone log' }).first().click();
    await page.getByRole('heading', { name: 'Phone log' }).waitFor();
    const table = page.getByTestId('checks-table');
    // The API page sends the number as +1 and ten digits.
    await table.getByRole('cell', { name: '+11234567890', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'API page test', exact: true }).waitFor();
    await expect(page.getByTestId('checks-total').textContent()).resolves.toBe('1 check');
    // The pointer off the sidebar link it clicked: a hovered link is a state of its own.
    await page.mouse.move(640, 780);
    await record(page, 'phone-log');

    // A filter that keeps nothing, then one that keeps it again.
    await page.getByRole('combobox', { name: 'DNC' }).click();
    await page.getByRole('option', { name: 'DNC only' }).click();
    await page.getByText('No check matches these filters.').waitFor();
    await page.getByRole('combobox', { name: 'DNC' }).click();
    await page.getByRole('option', { name: 'DNC and clean' }).click();
    await page.getByRole('searchbox', { name: 'Number' }).fill('4567');
    await table.getByRole('cell', { name: '+11234567890', exact: true }).waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const saved = await (await download).path();
    const csv = await readFile(saved, 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^Checked At,Input,Phone Number,Line Type,DNC/);
    expect(csv).toMatch(/,'?\+11234567890,'?\+11234567890,invalid,,0,0,test,token,/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
