import { readFile } from 'node:fs/promises';
import type { RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `optout.${Date.now()}@example.com`;
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

async function open(page: Page, path: string): Promise<void> {
  await page.goto(server.url + path);
  await page.locator('main').waitFor();
}

describe('the Suppression list screen in Chromium', () => {
  test('adds numbers, uploads a CSV, searches, removes and exports', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);

    await open(page, '/suppression');
    await page.getByRole('heading', { name: 'Suppression list' }).waitFor();
    const count = page.getByTestId('dnc-count');
    await expect.poll(() => count.textContent(), SLOW).toBe('0 numbers on your list.');

    await page.getByLabel('Numbers to add').fill('(202) 444-0701\n+1 202 444 0702, 12345');
    await page.getByRole('button', { name: 'Add numbers' }).click();
    await expect.poll(() => count.textContent(), SLOW).toBe('2 numbers on your list.');
    await page.getByTestId('dnc-rejected').getByText('"12345"').waitFor();
    await page.getByRole('cell', { name: '+12024440702', exact: true }).waitFor();

    // Replace: the file's numbers become the whole list; the phone column named by its header.
    await page.getByLabel('Phone column').fill('Phone');
    await page.getByText('Replace', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Replace' }).isChecked()).resolves.toBe(true);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose CSV' }).click();
    await (await chooser).setFiles({
      name: 'optouts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Name,Phone\nAda,2024440703\nBob,2024440704\nCy,2024440702\n'),
    });
    await expect.poll(() => count.textContent(), SLOW).toBe('3 numbers on your list.');
    await expect(page.getByRole('cell', { name: '+12024440701', exact: true }).count()).resolves.toBe(0);

    await page.getByLabel('Search by digits').fill('0704');
    await expect.poll(() => page.getByTestId('dnc-table').locator('tbody tr').count(), SLOW).toBe(1);
    await page.getByRole('button', { name: 'Remove +12024440704' }).click();
    await expect.poll(() => count.textContent(), SLOW).toBe('2 numbers on your list.');
    await page.getByText('No number on your list contains those digits.').waitFor();
    await page.getByLabel('Search by digits').fill('');
    await page.getByRole('cell', { name: '+12024440703', exact: true }).waitFor();
    await record(page, 'suppression');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const saved = await (await download).path();
    const csv = await readFile(saved, 'utf8');
    expect(csv.split('\n').map((line) => line.split(',')[0])).toEqual([
      'phone_number',
      '+12024440702',
      '+12024440703',
      '',
    ]);
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
