import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLedgerEntry, type RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `resume.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
const SLOW = { timeout: 60_000 };
const RECORDS = 1000;
const PART = 4096;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // Small parts, so that a small file goes up in several.
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent', SCRUB_UPLOAD_PART_BYTES: String(PART) });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('the wizard resends only the part whose connection dropped, and the file is processed whole', async () => {
  const page = await browser.newPage();
  await signUpAndLogIn(page, server, EMAIL, PASSWORD);
  // The account exists once the service has answered its credits.
  await expect.poll(() => page.getByTestId('credit-counter').textContent(), SLOW).toBe('0');
  const { db } = server.database;
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('email', '=', EMAIL)
    .executeTakeFirstOrThrow();
  await applyLedgerEntry(db, { profileId: profile.id, delta: 10_000, kind: 'grant' });

  const csv = [
    'Name,Phone',
    ...Array.from({ length: RECORDS }, (_, i) => `Lead ${i},201${2340000 + i}`),
  ].join('\n');
  const path = join(tmpdir(), `resume-${Date.now()}.csv`);
  await writeFile(path, csv);

  // The network drops part 3's first connection; every part PUT is counted, with its bytes.
  const puts = new Map<number, number>();
  let bytesSent = 0;
  await page.route('**/uploads/**', async (route) => {
    const request = route.request();
    if (request.method() !== 'PUT') return route.continue();
    const part = Number(new URL(request.url()).searchParams.get('part_number'));
    puts.set(part, (puts.get(part) ?? 0) + 1);
    bytesSent += request.postDataBuffer()?.length ?? 0;
    if (part === 3 && puts.get(part) === 1) return route.abort('connectionreset');
    return route.continue();
  });

  await page.goto(`${server.url}/bulk`);
  await page.locator('input[type=file]').setInputFiles(path);
  await page.getByRole('button', { name: 'Upload File' }).click();
  await page
    .getByText(`Found ${RECORDS.toLocaleString('en-US')} phone numbers`, { exact: false })
    .waitFor(SLOW);
  await page.getByRole('button', { name: 'Process', exact: true }).click();
  await page.getByTestId('process-records').click();
  await page.getByRole('heading', { name: 'Thank You!' }).waitFor(SLOW);

  const parts = Math.ceil(Buffer.byteLength(csv) / PART);
  expect([...puts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: parts }, (_, i) => i + 1));
  expect(puts.get(3)).toBe(2);
  expect([...puts.entries()].filter(([part, count]) => part !== 3 && count !== 1)).toEqual([]);
  // The file once, and part 3 again: never from the first byte.
  expect(bytesSent).toBe(Buffer.byteLength(csv) + PART);

  await expect
    .poll(
      async () =>
        await db
          .selectFrom('bulk_jobs')
          .select(['status', 'total_rows'])
          .where('profile_id', '=', profile.id)
          .executeTakeFirst(),
      SLOW,
    )
    .toEqual({ status: 'completed', total_rows: RECORDS });
});
