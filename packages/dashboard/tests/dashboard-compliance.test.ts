import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DisconnectList, DncListBuilder, DncSet, dayOf } from '@scrub/engine';
import { applyLedgerEntry, type RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { openScreen, signUpAndLogIn } from './sign-up';

// Issue 25 in the browser: an admin is told of a stale do-not-call list, and a customer maps a
// consent-date column and sees the lists the job will consult before paying.

const BOSS = `boss.${Date.now()}@example.com`;
const PAT = `pat.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };
const DAY_MS = 86_400_000;
/** The federal registry's release date: 40 days ago, past the 31-day maximum age. */
const RELEASED = new Date(Date.now() - 40 * DAY_MS).toISOString().slice(0, 10);

let server: RunningServer;
let browser: Browser;

/**
 * The federal registry, released 40 days ago, as the service would hold it after `scrub-server data
 * import ftc FILE --released <40 days ago>`, and a file of permanent disconnections (`data import
 * disconnects`), without which a consent-date column is refused: swapped in whole, as the server's
 * reload does.
 */
function loadStaleFederalListAndDisconnects(): void {
  const builder = new DncListBuilder('federal');
  builder.add(2012340002);
  const disconnects = DisconnectList.build([[2012340100, dayOf('2024-03-01')]], {
    version: 'rnd-2024-06',
    asOf: '2024-06-30',
    from: '2024-01-01',
  });
  // An operator list a job may flag (`data import list --name litigators`).
  const litigators = new DncListBuilder('list:litigators');
  litigators.add(2012340003);
  const { ref } = server.referenceData;
  ref.swap({
    ...ref.current(),
    dnc: new DncSet([builder.build(`v-${RELEASED}`, RELEASED)]),
    disconnects,
    lists: new DncSet([litigators.build('litigators-v1', '2026-11-01')]),
  });
}

beforeAll(async () => {
  // The first admin: a verified address in SCRUB_ADMIN_EMAILS is a Super Admin.
  // Carrier lookups offered (at 1 credit), from a provider that never answers: no job here waits on one.
  server = await startLocalServer({
    SCRUB_LOG_LEVEL: 'silent',
    SCRUB_ADMIN_EMAILS: BOSS,
    SCRUB_TWILIO_ACCOUNT_SID: 'ACtest',
    SCRUB_TWILIO_AUTH_TOKEN: 'token',
    SCRUB_TWILIO_LOOKUP_URL: 'http://127.0.0.1:9',
  });
  loadStaleFederalListAndDisconnects();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function grantCredits(email: string, credits: number): Promise<void> {
  const { db } = server.database;
  const profile = await db
    .selectFrom('profiles')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(SLOW.timeout);
  return context.newPage();
}

describe('registry age and consent dates in Chromium', () => {
  test("an admin sees the stale federal registry's date, age and how to load a fresh one; a customer does not", async () => {
    const page = await newPage();
    await signUpAndLogIn(page, server, BOSS, PASSWORD);
    const banner = page.getByTestId('dnc-age-banner');
    await banner.waitFor();
    await expect(banner.getByTestId('dnc-age-list').textContent()).resolves.toContain(
      `Federal DNC registry (released ${RELEASED}, 40 days ago) is stale`,
    );
    await banner.getByText('scrub-server data import ftc FILE --released YYYY-MM-DD').waitFor();
    // On every screen of the shell, not the account page only.
    await openScreen(page, server, '/export');
    await banner.waitFor();
    await record(page, 'dnc-age-banner');
    await page.context().close();

    const customer = await newPage();
    await signUpAndLogIn(customer, server, PAT, PASSWORD);
    await customer.getByRole('heading', { name: 'My Account' }).waitFor();
    await customer.getByTestId('credit-counter').waitFor();
    await expect(customer.getByTestId('dnc-age-banner').count()).resolves.toBe(0);
    await customer.context().close();
  });

  test("the wizard maps a Consent Date column, shows the stale list before paying, takes the job's own flag lists and a carrier lookup at their price, and sends them", async () => {
    const email = `consent.${Date.now()}@example.com`;
    const page = await newPage();
    await signUpAndLogIn(page, server, email, PASSWORD);
    // The balance is shown once the service has made the account's profile.
    await page.getByTestId('credit-counter').waitFor();
    await grantCredits(email, 100);
    await openScreen(page, server, '/bulk');

    const csvPath = join(tmpdir(), `consent-${Date.now()}.csv`);
    await writeFile(csvPath, 'Name,Phone,Consent\nAnn,2012340002,2026-01-05\nBob,2012340003,2025-12-01\n');
    await page.locator('input[type=file]').setInputFiles(csvPath);
    await page.getByTestId('chosen-file').waitFor();
    await page.getByRole('button', { name: 'Upload File' }).click();
    await page.getByTestId('preview-table').waitFor();
    await page.getByText('Found 2 phone numbers (requires 2 credits)').waitFor();

    // Optional, Do Not Map until chosen; the phone column is not offered for it.
    const consent = page.getByTestId('consent-column');
    await expect(consent.inputValue()).resolves.toBe('Do Not Map');
    await consent.click();
    await expect(
      page.getByRole('option', { name: 'Phone', exact: true }).getAttribute('data-combobox-disabled'),
    ).resolves.toBe('true');
    await page.getByRole('option', { name: 'Consent', exact: true }).click();
    await page.getByRole('button', { name: 'Process', exact: true }).click();

    // The summary: the consent column, and the lists the job will consult with their dates.
    await expect(page.getByTestId('summary-consent-date-column').textContent()).resolves.toBe('Consent');
    // Two records at 2 credits each: the check and the reassigned-number answer.
    await expect(page.getByTestId('summary-credits-required').textContent()).resolves.toBe('4');
    const lists = page.getByTestId('dnc-lists-panel');
    await expect(lists.getByTestId('dnc-list').textContent()).resolves.toBe(
      `Federal DNC registry: released ${RELEASED}, 40 days ago Stale`,
    );
    await expect(lists.getByTestId('dnc-notice').textContent()).resolves.toMatch(
      /is too old: numbers not on it answer unchecked, not clean\.$/,
    );
    await record(page, 'bulk-summary-dnc-lists');

    // This job's own options: a flag list (the account has no default ticked) and a carrier lookup,
    // whose price joins Credits required: 2 records at 3 credits.
    await page.getByLabel('litigators (released 2026-11-01)').check();
    await page.getByTestId('carrier-lookup').check();
    await expect(page.getByTestId('summary-credits-required').textContent()).resolves.toBe('6');

    // The job is created with the consent column named by its header.
    const created = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/bulk/jobs',
    );
    await page.getByTestId('process-records').click();
    const request = await created;
    expect(request.postDataJSON()).toMatchObject({
      phone_col: 1,
      consent_col: 'Consent',
      lists: ['litigators'],
      lookup: 'carrier',
    });
    // The service takes it: the job as it reports it names the column and the price a record.
    const response = await request.response();
    expect(response?.status()).toBe(201);
    expect(await response?.json()).toMatchObject({
      consent_col: 'Consent',
      credits_per_record: 3,
      lists: ['litigators'],
      lookup: 'carrier',
      columns: ['line_type_source'],
    });
    await page.context().close();
  });
});
