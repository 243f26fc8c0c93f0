import { readFile } from 'node:fs/promises';
import { BulkJobSchema, CreatedBulkJobSchema } from '@scrub/contract';
import { applyLedgerEntry, type RunningServer, rotateApiKey } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectAccessible, launchChromium, record } from './browser';
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
    // The pointer stays on the sidebar link it clicked: its hovered state is checked too, then
    // the Single checks tab hovered.
    await page.getByRole('link', { name: 'Phone log' }).first().hover();
    await expectAccessible(page, 'phone-log, sidebar link hovered');
    await page.getByRole('tab', { name: 'Single checks' }).hover();
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

  test('a bulk result is reviewed row by row from File detail: names beside numbers, paged, searched, filtered', async () => {
    const email = `review.${Date.now()}@example.com`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, email, PASSWORD);
    // The account exists once the service has answered its credits.
    await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('0');

    // 120 leads sent by API with their name and e-mail mapped; every tenth number invalid.
    const { db } = server.database;
    const profile = await db
      .selectFrom('profiles')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await applyLedgerEntry(db, { profileId: profile.id, delta: 500, kind: 'grant' });
    const headers = {
      'x-api-key': (await rotateApiKey(db, profile.id)).api_key,
      'content-type': 'application/json',
    };
    const leads = ['Name,Email,Phone'];
    for (let n = 1; n <= 120; n++)
      leads.push(
        `Lead ${n},lead${n}@example.com,${n % 10 === 0 ? `123${String(n).padStart(7, '0')}` : `201${String(2340000 + n)}`}`,
      );
    const created = await fetch(`${server.url}/bulk/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        file_name: 'review.csv',
        phone_col: 'Phone',
        mapping: { full_name: 'Name', email: 'Email' },
        csv_content: leads.join('\r\n'),
      }),
    });
    const job = CreatedBulkJobSchema.parse(await created.json());
    await expect
      .poll(async () => {
        const res = await fetch(`${server.url}/bulk/jobs/${job.job_id}`, { headers });
        return BulkJobSchema.parse(await res.json()).status;
      }, SLOW)
      .toBe('completed');

    await page.goto(`${server.url}/fileinfo?file_reference=${job.file_reference}`);
    await page.getByRole('link', { name: 'Review rows' }).click();
    await page.getByRole('tab', { name: 'Bulk results', selected: true }).waitFor();
    const table = page.getByTestId('result-rows-table');
    await table.getByRole('cell', { name: 'Lead 1', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'lead1@example.com', exact: true }).waitFor();
    await expect(page.getByTestId('rows-total').textContent()).resolves.toBe('120 rows');
    await page.getByText('Page 1 of 3').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await table.getByRole('cell', { name: 'Lead 51', exact: true }).waitFor();

    await page.getByRole('searchbox', { name: 'Search' }).fill('lead77@');
    await table.getByRole('cell', { name: 'Lead 77', exact: true }).waitFor();
    await expect(page.getByTestId('rows-total').textContent()).resolves.toBe('1 row');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('combobox', { name: 'Line type' }).click();
    await page.getByRole('option', { name: 'Invalid' }).click();
    await expect.poll(() => page.getByTestId('rows-total').textContent(), SLOW).toBe('12 rows');
    await table.getByRole('cell', { name: 'Lead 120', exact: true }).waitFor();
    await record(page, 'phone-log-bulk-results');
    expect(errors).toEqual([]);
    await context.close();
  });
});
