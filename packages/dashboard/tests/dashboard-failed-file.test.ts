import { readFile } from 'node:fs/promises';
import { BulkJobSchema, FileListSchema, JOB_ID_HEADER } from '@scrub/contract';
import { applyLedgerEntry, type RunningServer, rotateApiKey } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn as signUpAndLoggedIn } from './sign-up';

const EMAIL = `cutoff.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };
/** Fewer credits than the file has records: the stream is cut off part-way. */
const CREDITS = 120;
const RECORDS = 400;

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

async function signUpAndLogIn(page: Page): Promise<void> {
  await signUpAndLoggedIn(page, server, EMAIL, PASSWORD);
  // The account exists once the service has answered its credits.
  await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('0');
}

/** The file, 20 lines at a time 20 ms apart: a pipe from a slow producer, so credits run out mid-way. */
function slowly(lines: string[]): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= lines.length) return controller.close();
      if (at > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      controller.enqueue(Buffer.from(`${lines.slice(at, at + 20).join('\r\n')}\r\n`));
      at += 20;
    },
  });
}

/**
 * The signed-in customer's API key, with `CREDITS` granted, streams a file of `RECORDS` distinct
 * numbers (`POST /bulk/jobs/stream`, as `scrub bulk FILE --wait` does): the job as it ended.
 */
async function streamCutOff() {
  const { db } = server.database;
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('email', '=', EMAIL)
    .executeTakeFirstOrThrow();
  await applyLedgerEntry(db, { profileId: profile.id, delta: CREDITS, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, profile.id);
  const lines = ['Name,Phone', ...Array.from({ length: RECORDS }, (_, i) => `Lead ${i},201${2340000 + i}`)];
  const res = await fetch(`${server.url}/bulk/jobs/stream?file_name=leads.csv&phone_col=Phone`, {
    method: 'POST',
    headers: { 'x-api-key': api_key, 'content-type': 'text/csv' },
    body: slowly(lines),
    duplex: 'half',
  } as RequestInit);
  expect(res.status).toBe(200);
  // Cut off: the answer never ends properly.
  await expect(res.arrayBuffer()).rejects.toThrow();
  const job = await fetch(`${server.url}/bulk/jobs/${res.headers.get(JOB_ID_HEADER)}`, {
    headers: { 'x-api-key': api_key },
  });
  return BulkJobSchema.parse(await job.json());
}

/** The same customer streams a file whose first record cannot be read: refused, a failed job that kept nothing. */
async function streamUnreadable() {
  const { db } = server.database;
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('email', '=', EMAIL)
    .executeTakeFirstOrThrow();
  const { api_key } = await rotateApiKey(db, profile.id);
  const res = await fetch(`${server.url}/bulk/jobs/stream?file_name=broken.csv&phone_col=Phone`, {
    method: 'POST',
    headers: { 'x-api-key': api_key, 'content-type': 'text/csv' },
    body: 'Name,Phone\r\nAnn,"2015550123\r\n',
  });
  expect(res.status).toBe(400);
  const files = await fetch(`${server.url}/files?search=broken`, { headers: { 'x-api-key': api_key } });
  return FileListSchema.parse(await files.json()).files[0]!;
}

describe('a failed job on the Export and File detail screens in Chromium', () => {
  test('a streamed job cut off part-way shows why it failed and Get part downloads the part kept; one that kept nothing reads as the seed has it', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page);

    const job = await streamCutOff();
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^Your credits ran out after [\d,]+ records/);
    const reference = job.file_reference;
    const kept = Buffer.from(await (await fetch(`${server.url}/files/${reference}/result`)).arrayBuffer());
    expect(kept.length).toBeGreaterThan(0);

    // The table: Failed, the reason, what was charged and given back, and the part to download.
    await open(page, '/export');
    const row = page.getByTestId('file-row');
    await row.getByText('Failed', { exact: true }).waitFor();
    await expect(row.getByTestId('file-error').textContent()).resolves.toBe(job.error);
    const paid = job.credits_charged - job.credits_reversed;
    expect(paid).toBeGreaterThan(0);
    // The ledger's figures: what the records that went out were charged, and the net paid.
    const credits = row.getByTestId('job-credits');
    await credits.getByText(`Net ${paid.toLocaleString('en-US')}`, { exact: true }).waitFor();
    await expect(page.getByTestId('get-csv').count()).resolves.toBe(0);
    // The part of the file that arrived was not kept: nothing to offer as the original.
    await expect(row.getByRole('link', { name: /^Download the original/ }).count()).resolves.toBe(0);
    await record(page, 'export-failed');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Get part: the scrubbed part of leads.csv' }).click(),
    ]);
    expect(download.url()).toBe(`${server.url}/files/${reference}/result`);
    expect(download.suggestedFilename()).toBe('leads-scrubbed-part.csv');
    const downloaded = await readFile((await download.path()) as string);
    expect(downloaded.equals(kept)).toBe(true);

    // The cards on a phone: the same reason and the same part.
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByTestId('file-card');
    await expect(card.getByTestId('file-error').textContent()).resolves.toBe(job.error);
    await card.getByRole('link', { name: 'Get part: the scrubbed part of leads.csv' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });

    // File detail: the reason, and the part's download in place of the output's.
    await page.getByRole('link', { name: 'View leads.csv' }).click();
    await page.getByRole('heading', { name: 'File details' }).waitFor();
    await expect(page.getByTestId('file-error').textContent()).resolves.toBe(`Failed: ${job.error}`);
    const detailPart = page.getByRole('link', { name: 'Download scrubbed part' });
    await expect(detailPart.getAttribute('href')).resolves.toBe(`/files/${reference}/result`);
    await expect(page.getByRole('link', { name: 'Download uploaded file' }).count()).resolves.toBe(0);
    await record(page, 'file-detail-failed');

    // A failed job that kept nothing, as the seed has it: Failed, nothing charged, no download; on
    // File detail the output reads Failed (disabled), with 0 records out and 0 credits.
    const broken = await streamUnreadable();
    expect(broken).toMatchObject({ status: 'failed', part_url: null, credits_charged: 0 });
    await open(page, '/export');
    const brokenRow = page.getByTestId('file-row').filter({ hasText: 'broken.csv' });
    await brokenRow.getByText('Failed', { exact: true }).waitFor();
    await expect(brokenRow.getByTestId('file-error').textContent()).resolves.toBe(broken.error);
    await brokenRow.getByText('0 (reversed 0)').waitFor();
    await expect(brokenRow.getByRole('link', { name: /^Get part/ }).count()).resolves.toBe(0);
    await brokenRow.getByRole('link', { name: 'View broken.csv' }).click();
    await page.getByRole('heading', { name: 'File details' }).waitFor();
    await expect(page.getByRole('button', { name: 'Failed' }).isDisabled()).resolves.toBe(true);
    const facts = await page.getByTestId('file-facts').textContent();
    expect(facts).toContain('Total records (output)0');
    expect(facts).toContain('Total credits0');

    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
