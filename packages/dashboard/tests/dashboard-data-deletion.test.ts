import { readFile } from 'node:fs/promises';
import { BulkJobSchema } from '@scrub/contract';
import { applyLedgerEntry, type RunningServer, rotateApiKey } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { openScreen, signUpAndLogIn } from './sign-up';

const EMAIL = `deleter.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent', SCRUB_FILE_RETENTION_DAYS: '30' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The signed-in customer's API key scrubs a small file: its reference once completed. */
async function completedFile(): Promise<string> {
  const { db } = server.database;
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('email', '=', EMAIL)
    .executeTakeFirstOrThrow();
  await applyLedgerEntry(db, { profileId: profile.id, delta: 10, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, profile.id);
  const headers = { 'x-api-key': api_key, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/bulk/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      file_name: 'leads.csv',
      phone_col: 'Phone',
      csv_content: 'Name,Phone\nAnn,2012340001\n',
    }),
  });
  const { job_id } = (await created.json()) as { job_id: string };
  await fetch(`${server.url}/bulk/jobs/${job_id}/submit`, {
    method: 'POST',
    headers: { 'x-api-key': api_key },
  });
  for (;;) {
    const res = await fetch(`${server.url}/bulk/jobs/${job_id}`, { headers: { 'x-api-key': api_key } });
    const job = BulkJobSchema.parse(await res.json());
    if (job.status === 'completed') return job.file_reference;
    expect(job.status).not.toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('deleting data in Chromium', () => {
  test('Export shows when a file expires; File detail deletes it after a confirmation; My Account exports the data and deletes the account', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);
    // The account exists once the service has answered its credits.
    await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('0');
    const reference = await completedFile();

    await openScreen(page, server, '/export');
    const row = page.getByTestId('file-row');
    await expect(row.getByTestId('file-expires').textContent()).resolves.toMatch(
      /^Kept until \d{4}-\d\d-\d\d, then deleted$/,
    );
    await row.getByRole('link', { name: 'View leads.csv' }).click();
    await page.getByRole('heading', { name: 'File details' }).waitFor();
    await page.getByTestId('file-expires').waitFor();

    // Cancel keeps it; Delete file deletes it.
    await page.getByRole('button', { name: 'Delete leads.csv' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Download output file' }).waitFor();
    await page.getByRole('button', { name: 'Delete leads.csv' }).click();
    await page.getByRole('button', { name: 'Delete file' }).click();
    await expect(page.getByTestId('file-removed').textContent()).resolves.toMatch(
      /^Deleted on \d{4}-\d\d-\d\d: you deleted it\.$/,
    );
    await expect(page.getByRole('link', { name: 'Download output file' }).count()).resolves.toBe(0);
    await record(page, 'file-detail-deleted');
    expect((await fetch(`${server.url}/files/${reference}/result`)).status).toBe(410);

    await openScreen(page, server, '/export');
    await page.getByTestId('file-row').getByTestId('file-removed').waitFor();
    await expect(page.getByTestId('get-csv').count()).resolves.toBe(0);
    await record(page, 'export-deleted-file');

    // My Account: download the data, then delete the account with the e-mail typed again.
    await openScreen(page, server, '/accountInfo');
    const deleteButton = page.getByRole('button', { name: 'Delete account' });
    await expect(deleteButton.isDisabled()).resolves.toBe(true);
    await page.getByRole('heading', { name: 'Your data' }).scrollIntoViewIfNeeded();
    await record(page, 'account-your-data');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('scrub-account.json');
    const bundle = JSON.parse(await readFile((await download.path()) as string, 'utf8'));
    expect(bundle.account.email).toBe(EMAIL);
    expect(bundle.files).toHaveLength(1);
    await deleteButton.click();
    const confirm = page.getByRole('button', { name: 'Delete my account' });
    await page.getByLabel('Type your e-mail address to confirm').fill('someone@example.com');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await page.getByLabel('Type your e-mail address to confirm').fill(EMAIL);
    await record(page, 'account-delete-confirm');
    await confirm.click();
    await page.waitForURL(/\/login/);
    await page.getByText('Your account was deleted.', { exact: false }).waitFor();

    // The password no longer signs in.
    await page.locator('input[name=email]').fill(EMAIL);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('alert').or(page.getByRole('dialog')).first().waitFor();
    expect(page.url()).toMatch(/\/login/);

    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
