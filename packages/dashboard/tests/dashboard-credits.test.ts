import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BulkJobSchema } from '@scrub/contract';
import { applyLedgerEntry, type RunningServer, rotateApiKey } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `credits.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

/** 10 records: 4 distinct valid numbers, 3 duplicates of them, 3 rows without a valid number. */
const LEADS = [
  'Name,Phone',
  'a,2012345670',
  'b,2012345671',
  'c,2012345672',
  'd,2012345673',
  'e,(201) 234-5670',
  'f,201.234.5671',
  'g,2012345670',
  'h,123-456-7890',
  'i,not a number',
  'j,555',
].join('\n');

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

/** The customer signed up as `email` is granted 100 credits: their profile's id. */
async function grant100(email: string): Promise<string> {
  const { db } = server.database;
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  await applyLedgerEntry(db, { profileId: profile.id, delta: 100, kind: 'grant' });
  return profile.id;
}

/** The signed-in customer is granted 100 credits and scrubs LEADS with an API key: the finished job. */
async function scrubLeads() {
  const { db } = server.database;
  const profileId = await grant100(EMAIL);
  const { api_key } = await rotateApiKey(db, profileId);
  const headers = { 'x-api-key': api_key, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/bulk/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ file_name: 'leads.csv', phone_col: 'Phone', csv_content: LEADS }),
  });
  expect(created.status).toBe(201);
  const { job_id } = (await created.json()) as { job_id: string };
  for (;;) {
    const job = BulkJobSchema.parse(
      await (await fetch(`${server.url}/bulk/jobs/${job_id}?wait=20`, { headers })).json(),
    );
    if (job.status === 'completed' || job.status === 'failed') return job;
  }
}

describe('credits a customer can reconcile, in Chromium', () => {
  test("a job's credits by reason on Export and File detail, and the credit history on My Account", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);
    await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('0');
    const job = await scrubLeads();
    expect(job).toMatchObject({ status: 'completed', credits: { charged: 10, net: 4 } });

    // Export: charged, each give-back with its reason, and the net the balance fell by.
    await page.goto(`${server.url}/export`);
    const credits = page.getByTestId('file-table').getByTestId('job-credits');
    await credits.waitFor();
    await expect(credits.locator('p').allInnerTexts()).resolves.toEqual([
      '10 charged',
      '−3 duplicates (charged once)',
      '−3 invalid numbers',
      'Net 4',
    ]);
    await record(page, 'export-credits');

    // File detail: the seed's facts, now the ledger's figures, and the breakdown.
    await page.goto(`${server.url}/fileinfo?file_reference=${job.file_reference}`);
    const card = page.getByTestId('job-credits-card');
    await card.waitFor();
    const facts = page.getByTestId('file-facts');
    const factTexts = await facts.locator('p').allInnerTexts();
    expect(factTexts.slice(-4)).toEqual(['Credits reversed for duplicates', '3', 'Total credits', '4']);
    await expect(card.locator('tr').allTextContents()).resolves.toEqual([
      'Credits charged10',
      'Given back: duplicates (charged once)−3',
      'Given back: invalid numbers−3',
      'Net credits (your balance’s change)4',
    ]);
    await expect(card.textContent()).resolves.toContain('Duplicate numbers in one file are charged once.');
    await card.scrollIntoViewIfNeeded();
    await record(page, 'file-detail-credits');

    // My Account: every entry with its running balance, newest first; by month; as CSV.
    await page.goto(`${server.url}/accountInfo`);
    const history = page.getByTestId('credit-history');
    await history.getByTestId('credit-history-table').waitFor();
    const rows = history.getByTestId('credit-history-row');
    await expect.poll(() => rows.count(), SLOW).toBe(4);
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent)),
    );
    expect(cells).toEqual([
      ['Given back: invalid numbers', '+3', '96'],
      ['Given back: duplicates (charged once)', '+3', '93'],
      ['Bulk job', '−10', '90'],
      ['Credits granted', '+100', '100'],
    ]);
    await expect(page.getByTestId('credit-counter').textContent()).resolves.toBe('96');
    await history.scrollIntoViewIfNeeded();
    await record(page, 'credit-history');

    await history.getByRole('combobox', { name: 'Month' }).click();
    const past = new Date(Date.UTC(new Date().getUTCFullYear() - 1, new Date().getUTCMonth(), 1));
    await page
      .getByRole('option', {
        name: past.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
      })
      .click();
    await history.getByText('No credit changes in this month.').waitFor();
    await history.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'All months' }).click();
    await expect.poll(() => rows.count(), SLOW).toBe(4);

    const download = page.waitForEvent('download');
    await history.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile(await (await download).path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('Date,Entry,Kind,Credits,Balance,Reason,Reference,Note');
    expect(lines.slice(1).map((line) => line.split(',').slice(1, 6))).toEqual([
      ['Given back', 'reversal', '3', '96', 'invalid'],
      ['Given back', 'reversal', '3', '93', 'duplicates'],
      ['Bulk job', 'bulk_charge', '-10', '90', ''],
      ['Credits granted', 'grant', '100', '100', ''],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the bulk wizard's result step follows the job to its credits: charged, given back by reason, net", async () => {
    const email = `wizard.${EMAIL}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, email, PASSWORD);
    await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('0');
    await grant100(email);
    const path = join(tmpdir(), `wizard-leads-${Date.now()}.csv`);
    await writeFile(path, LEADS);

    await page.goto(`${server.url}/bulk`);
    await page.locator('input[type=file]').setInputFiles(path);
    await page.getByRole('button', { name: 'Upload File' }).click();
    await page.getByText('Found 10 phone numbers', { exact: false }).waitFor();
    // The Name column mapped to Full name, and the result asked to carry the standard headers.
    await page
      .getByRole('textbox', { name: /^Full name/ })
      .or(page.getByLabel(/^Full name/))
      .first()
      .click();
    await page.getByRole('option', { name: 'Name', exact: true }).click();
    await page.getByLabel(/standard headers in the result/).check();
    await page.getByRole('button', { name: 'Process', exact: true }).click();
    await page.getByTestId('process-records').click();
    await page.getByRole('heading', { name: 'Thank You!' }).waitFor();

    // Followed until the job ends: the ledger's figures, equal to the balance's change.
    await page.getByText('Your file is ready. These are its final credits.').waitFor();
    const card = page.getByTestId('job-credits-card');
    await expect(card.locator('tr').allTextContents()).resolves.toEqual([
      'Credits charged10',
      'Given back: duplicates (charged once)−3',
      'Given back: invalid numbers−3',
      'Net credits (your balance’s change)4',
    ]);
    await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('96');
    // The result names the mapped column with its standard header.
    const href = await page.getByRole('link', { name: 'View file' }).getAttribute('href');
    const reference = new URLSearchParams(href?.split('?')[1]).get('file_reference');
    const result = await (await fetch(`${server.url}/files/${reference}/result`)).text();
    expect(result.split(/\r?\n/)[0]).toMatch(/^Full Name,Phone,/);
    // The state line and the card below it, on a phone too.
    await record(page, 'bulk-result-credits', page.getByTestId('job-state'));
    expect(errors).toEqual([]);
    await context.close();
  });
});
