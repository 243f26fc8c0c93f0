import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Scrub } from '@scrub/sdk';
import type { RunningServer } from '@scrub/server';
import { accountWithApiKey, latestCode, startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';

const BOSS = 'boss@example.com';
const PAT = `pat.${Date.now()}@example.com`;
const AGENCY = `agency.${Date.now()}@example.com`;
const CLIENT = `client.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // The first admin: a verified address in SCRUB_ADMIN_EMAILS is a Super Admin.
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent', SCRUB_ADMIN_EMAILS: BOSS });
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

async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function logIn(page: Page, email: string): Promise<void> {
  await open(page, '/login');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/accountInfo/);
}

async function signUpAndLogIn(page: Page, email: string): Promise<void> {
  await open(page, '/signup');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL(/\/confirmEmail\?email=/);
  await page.getByLabel('Verification code').fill(await latestCode(server, email));
  await page.getByRole('button', { name: 'Confirm Email' }).click();
  await page.waitForURL(/\/login/);
  await logIn(page, email);
}

const counter = (page: Page) => page.getByTestId('credit-counter');

/** Whether the table is wider than its box, so that a reader must scroll sideways. */
const overflowsSideways = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((table) => {
    const box = table.parentElement?.closest('.mantine-ScrollArea-viewport') ?? table.parentElement;
    return table.scrollWidth > (box?.clientWidth ?? 0) + 1;
  });

/** Picks Pat in the Admin page's searchable account picker. */
async function selectPat(page: Page): Promise<void> {
  await open(page, '/admin');
  const picker = page.getByRole('combobox', { name: 'User account' });
  await picker.fill(PAT.slice(0, 8));
  await page.getByRole('option', { name: new RegExp(PAT.replace(/\./g, '\\.')) }).click();
  await page.getByTestId('selected-plan').waitFor();
}

describe('the admin screens in Chromium', () => {
  test('an admin creates a user, adds credits, acts as them, switches back, disables them; a plain user is sent away', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, BOSS);

    // The ADMIN link, and the Admin page.
    await page.getByRole('link', { name: 'ADMIN' }).first().click();
    await page.getByRole('heading', { name: 'Admin Page' }).waitFor();
    await record(page, 'admin');

    // Create Account: all fields, then the confirmation modal.
    await page.getByLabel('Email', { exact: true }).fill(PAT);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await choose(page, page.getByRole('combobox', { name: 'Type' }), 'User');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(`Create a User account for ${PAT}?`).waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Account created successfully').waitFor();

    // An Agency account too: the form is emptied once it is created.
    await page.getByLabel('Email', { exact: true }).fill(AGENCY);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await choose(page, page.getByRole('combobox', { name: 'Type' }), 'Agency');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(`Create an Agency account for ${AGENCY}?`).waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue(), SLOW).toBe('');

    // User Information: Add is disabled at 0; 25 credits added.
    await selectPat(page);
    await page.getByRole('button', { name: 'User Information' }).click();
    const modal = page.getByRole('dialog', { name: 'User Information' });
    await expect.poll(() => modal.getByTestId('user-info-credits').textContent(), SLOW).toBe('0');
    await expect(modal.getByRole('button', { name: 'Add' }).isDisabled()).resolves.toBe(true);
    await modal.getByLabel('Credits to add').fill('25');
    await modal.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => modal.getByTestId('user-info-credits').textContent(), SLOW).toBe('25');
    await record(page, 'admin-user-info');
    await page.keyboard.press('Escape');

    // A plain user: no admin link, and /admin typed by hand sends them away.
    const patContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    patContext.setDefaultTimeout(SLOW.timeout);
    const patPage = await patContext.newPage();
    await logIn(patPage, PAT);
    await expect(patPage.getByRole('link', { name: 'ADMIN' }).count()).resolves.toBe(0);
    await open(patPage, '/admin');
    await patPage.waitForURL(`${server.url}/`);
    await open(patPage, '/users');
    await patPage.waitForURL(`${server.url}/`);
    // Pat makes an API key as themselves: an acting session may not (below).
    await open(patPage, '/apidoc');
    await patPage.getByTestId('generate-key').click();
    await patPage.getByRole('button', { name: 'Continue' }).click();
    await patPage.getByText('This is the ONLY time you will see this API key').waitFor();
    await patContext.close();

    // Agency: User Management lists its own clients only; Add User makes a client (type User);
    // no ADMIN link, and /admin typed by hand sends it away.
    const agencyContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    agencyContext.setDefaultTimeout(SLOW.timeout);
    const agencyPage = await agencyContext.newPage();
    await logIn(agencyPage, AGENCY);
    await agencyPage.getByRole('link', { name: 'User Management' }).click();
    await agencyPage.getByTestId('users-table').waitFor();
    await agencyPage.getByRole('link', { name: 'Add User' }).click();
    await agencyPage.getByLabel('Email', { exact: true }).fill(CLIENT);
    await agencyPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await agencyPage.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await agencyPage.getByRole('button', { name: 'Create Account' }).click();
    await agencyPage.getByText(`Create a User account for ${CLIENT}?`).waitFor();
    await agencyPage.getByRole('button', { name: 'Confirm' }).click();
    const clients = agencyPage.getByTestId('users-table');
    await clients.getByText(CLIENT).waitFor();
    await expect(clients.getByRole('row').count()).resolves.toBe(2);
    await expect(clients.getByText(PAT).count()).resolves.toBe(0);
    await expect(agencyPage.getByRole('link', { name: 'ADMIN' }).count()).resolves.toBe(0);
    // The Agency acts as its client from Users, and switching back returns there.
    await clients.getByRole('button', { name: `Act as ${CLIENT}` }).click();
    await agencyPage.waitForURL(/\/accountInfo/);
    await agencyPage.getByText(`Logged in as ${CLIENT}`).waitFor();
    await agencyPage.getByRole('button', { name: 'Switch back' }).click();
    await agencyPage.getByRole('button', { name: 'Yes' }).click();
    await agencyPage.waitForURL(/\/users$/);
    await expect(agencyPage.getByTestId('acting-banner').count()).resolves.toBe(0);
    await open(agencyPage, '/admin');
    await agencyPage.waitForURL(`${server.url}/`);
    await agencyContext.close();

    // Act as Pat: the banner on every screen, Pat's credits, a check made as Pat.
    await page.getByRole('button', { name: 'Act as this user' }).click();
    await page.waitForURL(/\/accountInfo/);
    await page.getByText(`Logged in as ${PAT}`).waitFor();
    await expect.poll(() => counter(page).textContent(), SLOW).toBe('25');
    await record(page, 'admin-acting');
    await open(page, '/apidoc');
    await page.getByText(`Logged in as ${PAT}`).waitFor();
    // Keys are the owner's alone: the acting admin's rotation is refused, saying why.
    await page.getByRole('button', { name: 'Generate New API Key' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByText(/Acting sessions cannot do this/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByTestId('test-phone').fill('2012345600');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => counter(page).textContent(), SLOW).toBe('24');

    // Switch back: asked first, then the admin's own account again.
    await page.getByRole('button', { name: 'Switch back' }).click();
    await page.getByText('Are you sure you want to switch to your account?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('heading', { name: 'Admin Page' }).waitFor();
    await expect(page.getByTestId('acting-banner').count()).resolves.toBe(0);

    // The audit log names the admin, Pat and the check.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByTestId('audit-table');
    await audit.getByText('act_as.request').first().waitFor();
    await expect(audit.getByText(/path: \/verify/).count()).resolves.toBeGreaterThan(0);
    // Reloaded (or bookmarked), the page again: its path is no API path, whose JSON it would show.
    await page.reload();
    await audit.getByText('act_as.request').first().waitFor();
    await record(page, 'admin-audit');
    // On a phone the audit and users tables fit the screen: no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    // Polled: the table is laid out again after the viewport changes.
    await expect.poll(() => overflowsSideways(page, 'audit-table'), SLOW).toBe(false);
    await open(page, '/users');
    await page.getByTestId('users-table').getByText(PAT).waitFor();
    // Polled: the table is laid out again after the viewport changes.
    await expect.poll(() => overflowsSideways(page, 'users-table'), SLOW).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Users, AddUser, EditUser and the reset-password modal's messages.
    await open(page, '/users');
    await page.getByTestId('users-table').getByText(PAT).waitFor();
    // The Agency column: the client made by the Agency names it; Pat is no one's client.
    const rowOf = (email: string) => page.getByRole('row', { name: new RegExp(email.replace(/\./g, '\\.')) });
    await expect(rowOf(CLIENT).getByRole('cell', { name: AGENCY, exact: true }).count()).resolves.toBe(1);
    await expect(rowOf(PAT).getByRole('cell', { name: AGENCY, exact: true }).count()).resolves.toBe(0);
    await record(page, 'users');
    await page
      .getByRole('row', { name: new RegExp(PAT.replace(/\./g, '\\.')) })
      .getByRole('button', { name: 'Reset password' })
      .click();
    const reset = page.getByRole('dialog');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await reset.getByText("Password can't be blank!").waitFor();
    await reset.getByLabel('New password').fill('abc');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await reset.getByText('You have to enter at least 8 characters!').waitFor();
    await reset.getByLabel('New password').fill('abcdefg1');
    await reset.getByLabel('Confirm password').fill('abcdefg2');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await reset.getByText("Confirm password doesn't match New password").waitFor();
    await reset.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Add User' }).click();
    await page.getByRole('heading', { name: 'Add User' }).waitFor();
    await record(page, 'add-user');
    await open(page, '/users');
    await page
      .getByRole('row', { name: new RegExp(PAT.replace(/\./g, '\\.')) })
      .getByRole('link', { name: 'Edit' })
      .click();
    await expect.poll(() => page.getByLabel('Email').inputValue(), SLOW).toBe(PAT);
    await record(page, 'edit-user');

    // Delete (disable) Pat, after the seed's question.
    await selectPat(page);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByText('Are you sure? Do you really want to delete this user?').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByTestId('selected-status').textContent(), SLOW).toBe('disabled');

    expect(errors).toEqual([]);
    await context.close();
  });

  test('Upload Existing Files: a small scrubbed CSV is stored and listed on Export as Direct DB', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    await logIn(page, BOSS);
    await open(page, '/admin');
    await page.getByRole('link', { name: 'Upload Existing Files' }).click();
    await page.getByRole('heading', { name: 'Upload Existing Files' }).waitFor();
    await page.getByRole('button', { name: 'Upload File' }).waitFor();
    await record(page, 'upload-existing-choose-file');

    const name = `scrubbed-${Date.now()}.csv`;
    const path = join(tmpdir(), name);
    await writeFile(path, 'Name,Phone,Line Type,DNC\nAnn,2012345678,mobile,0\nBob,2023334444,Landline,1\n');
    await page.locator('input[type=file]').setInputFiles(path);
    await page.getByTestId('chosen-file').waitFor();
    await page.getByRole('button', { name: 'Upload File' }).click();
    await page.getByTestId('preview-table').waitFor();
    await record(page, 'upload-existing-mapping');
    await page.getByRole('button', { name: 'Process', exact: true }).click();
    await page.getByRole('button', { name: 'Process Records' }).click();
    await page.getByTestId('existing-stored').waitFor();
    await record(page, 'upload-existing-stored');

    await page.getByRole('link', { name: 'Check File Status' }).click();
    const row = page.getByRole('row', { name: new RegExp(name.replace(/\./g, '\\.')) });
    await row.waitFor();
    await expect(row.getByText('Direct DB').count()).resolves.toBe(1);
    await context.close();
  });

  test("an admin refunds part of a customer's purchase from its purchase history", async () => {
    const email = `refunded.${Date.now()}@example.com`;
    const scrub = new Scrub({
      baseURL: server.url,
      apiKey: await accountWithApiKey(server, { sub: `refunded-${Date.now()}`, email, credits: 0 }),
    });
    await scrub.payments.setup({
      customer_name: 'Ray Fund',
      line1: '1 Main St',
      city: 'Newark',
      state: 'NJ',
      payment_method_id: 'pm_card_visa',
    });
    await scrub.payments.buy({ reference_code: '79541679412213', amount: 5 });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    await logIn(page, BOSS);
    await open(page, '/admin');
    const picker = page.getByRole('combobox', { name: 'User account' });
    await picker.fill(email.slice(0, 10));
    await page.getByRole('option', { name: new RegExp(email.replace(/\./g, '\\.')) }).click();
    await page.getByTestId('selected-plan').waitFor();
    await page.getByRole('button', { name: 'User Information' }).click();
    const modal = page.getByRole('dialog', { name: 'User Information' });
    await expect.poll(() => modal.getByTestId('user-info-credits').textContent(), SLOW).toBe('3,557');
    const row = modal.getByRole('row').filter({ hasText: 'FLEXIBLE CREDITS' }).filter({ hasText: '$5.00' });
    await row.getByRole('button', { name: 'Refund' }).click();
    const form = modal.getByRole('group', { name: 'Refund FLEXIBLE CREDITS' });
    await form.getByLabel('Refund ($)').fill('2');
    await form.getByLabel('Reason').fill('Charged twice');
    await form.getByRole('button', { name: 'Refund' }).click();
    await expect.poll(() => row.textContent(), SLOW).toContain('(refunded $2.00)');
    await expect.poll(() => modal.getByTestId('user-info-credits').textContent(), SLOW).toBe('2,414');
    expect((await scrub.purchases.list())[0]).toMatchObject({ refunded_amount: 2 });
    await context.close();
  });
});
