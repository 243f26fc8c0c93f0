import { AuthenticationRequiredError, Scrub } from '@scrub/sdk';
import type { RunningServer } from '@scrub/server';
import { accountWithApiKey, saveTestCard, startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

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

const counter = (page: Page) => page.getByTestId('credit-counter');

async function open(page: Page, path: string): Promise<void> {
  await page.goto(server.url + path);
  await page.locator('main').waitFor();
}

/** The card element's inputs (the stand-in's, labelled as Stripe's are). */
async function typeCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Credit or debit card number').fill(number);
  await page.getByLabel('Credit or debit card expiration date').fill('12 / 34');
  await page.getByLabel('Credit or debit card CVC/CVV').fill('123');
}

async function fillBilling(page: Page): Promise<void> {
  await page.getByLabel('Name on card').fill('Pat Payer');
  await page.getByLabel('Address line 1').fill('1 Main St');
  await page.getByLabel('City').fill('Newark');
  await page.getByLabel('State').fill('NJ');
  await page.getByLabel('Postal code').fill('07102');
}

/** The dialog with this title, read and closed. */
async function closeDialog(page: Page, title: string | RegExp): Promise<string> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: title }) });
  await dialog.waitFor();
  const text = (await dialog.textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  return text;
}

const PAYG = 'FLEXIBLE CREDITS';

describe('payments in the dashboard, in Chromium', () => {
  test('a customer adds a card, takes the intro, buys credits, subscribes, pauses, resumes and reads the history', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, `payer.${Date.now()}@example.com`, 'Secret-pass-1');
    await expect.poll(() => counter(page).textContent(), { timeout: 20_000 }).toBe('0');

    // Card: the intro offer, the seed's address rules, then card 4242 through the card element.
    await open(page, '/card');
    await page.getByTestId('intro-offer').waitFor();
    await expect(page.getByTestId('intro-offer').textContent()).resolves.toMatch(
      /\$1 verification charge, which gives you 500 credits plus a 200-credit bonus/,
    );
    await page.getByLabel('Credit or debit card number').waitFor();
    await record(page, 'card');
    await page.getByRole('button', { name: 'Save card' }).click();
    for (const message of [
      'Name is required',
      'Line1 is required',
      'City is required',
      'State is required',
    ]) {
      await page.getByText(message).waitFor();
    }
    await fillBilling(page);
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();
    const added = await closeDialog(page, 'Success');
    expect(added).toContain('Card Added Successfully');
    expect(added).toContain('700 credits added');
    await page.waitForURL(/\/accountInfo/);
    await expect.poll(() => counter(page).textContent(), { timeout: 20_000 }).toBe('700');

    // A flexible amount: the seed's amounts, Confirm only once one is picked, the confirmation, then AccountInfo.
    await open(page, '/purchase');
    await expect
      .poll(() => page.getByTestId('purchase-balance').textContent(), { timeout: 20_000 })
      .toBe('700');
    await page.getByRole('radio', { name: new RegExp(PAYG) }).check();
    await page.getByRole('button', { name: 'Add Credits' }).click();
    const amounts = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('heading', { name: 'Select Amount' }) });
    await amounts.waitFor();
    for (const amount of ['$5', '$10', '$20', '$50', '$100']) {
      await amounts.getByRole('radio', { name: new RegExp(`^\\${amount}:`) }).waitFor();
    }
    await expect(amounts.getByRole('button', { name: 'Confirm' }).isDisabled()).resolves.toBe(true);
    await record(page, 'purchase-amount');
    await amounts.getByRole('radio', { name: /^\$10:/ }).check();
    await amounts.getByRole('button', { name: 'Confirm' }).click();
    const confirmation = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('heading', { name: 'Payment Confirmation' }) });
    await confirmation.getByText(`${PAYG}: $10, charged to your Visa ending 4242.`).waitFor();
    await record(page, 'purchase-confirmation');
    await confirmation.getByRole('button', { name: 'Pay' }).click();
    expect(await closeDialog(page, 'Payment Complete')).toContain('Your payment was successful');
    await page.waitForURL(/\/accountInfo/);
    await expect.poll(() => counter(page).textContent(), { timeout: 20_000 }).toBe('6,414');

    // A monthly plan: Select Plan, Subscribe; then its button reads Current Plan.
    await open(page, '/purchase');
    const standard = page.getByTestId('plan-card').filter({ hasText: 'STANDARD' });
    await standard.getByRole('button', { name: 'Select Plan' }).click();
    await confirmation.getByText('STANDARD: $49 a month, charged to your Visa ending 4242.').waitFor();
    await confirmation.getByRole('button', { name: 'Subscribe' }).click();
    await closeDialog(page, 'Payment Complete');
    await page.waitForURL(/\/accountInfo/);
    await expect.poll(() => counter(page).textContent(), { timeout: 20_000 }).toBe('36,414');
    await open(page, '/purchase');
    await standard.getByRole('button', { name: 'Current Plan' }).waitFor();
    await expect(standard.getByRole('button', { name: 'Current Plan' }).isDisabled()).resolves.toBe(true);
    const subscription = page.getByTestId('subscription');
    await subscription.getByText('active').waitFor();

    // History: newest first, filtered by month.
    const history = page.getByTestId('purchase-history');
    await expect.poll(() => history.locator('tbody tr').count(), { timeout: 20_000 }).toBe(3);
    await expect(history.locator('tbody tr').first().textContent()).resolves.toContain('STANDARD');
    await expect(history.locator('tbody tr').last().textContent()).resolves.toContain('CARD VERIFICATION');
    await record(page, 'purchase');
    const otherMonth = new Date().getMonth() === 0 ? 'Feb' : 'Jan';
    await page.getByTestId('month-filter').click();
    await page.getByRole('option', { name: otherMonth, exact: true }).click();
    await page.getByText('No purchases in this period.').waitFor();

    // Pause: the Account Confirmation modal; the bulk wizard then asks to activate first.
    await subscription.getByRole('button', { name: 'Pause subscription' }).click();
    const account = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('heading', { name: 'Account Confirmation' }) });
    await account.getByRole('button', { name: 'Pause' }).click();
    await account.waitFor({ state: 'detached' });
    await subscription.getByText('paused').waitFor();
    await open(page, '/bulk');
    await page.getByRole('link', { name: 'Please activate your account first' }).click();
    await page.waitForURL(/\/accountInfo\?scrollTo=activate/);
    await expect(page.getByTestId('plan-status').textContent()).resolves.toBe('paused');
    await record(page, 'account-paused');

    // Buying while paused opens the same modal; Activate resumes the plan and its billing.
    await open(page, '/purchase');
    await page.getByRole('radio', { name: new RegExp(PAYG) }).check();
    await page.getByRole('button', { name: 'Add Credits' }).click();
    await account.getByText('please activate your account first').waitFor();
    await record(page, 'account-confirmation');
    await account.getByRole('button', { name: 'Activate' }).click();
    await account.waitFor({ state: 'detached' });
    await subscription.getByText('active').waitFor();
    await open(page, '/bulk');
    await page.getByRole('button', { name: 'Upload File' }).waitFor();

    // A declined card: the provider's reason, nothing saved.
    await open(page, '/card');
    await page.getByLabel('Credit or debit card number').waitFor();
    await fillBilling(page);
    await typeCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save card' }).click();
    const declined = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Error' }) });
    await declined.getByText(/Your card was declined/).waitFor();
    await record(page, 'card-declined');
    await closeDialog(page, 'Error');
    await expect(page.getByTestId('saved-cards').textContent()).resolves.not.toContain('ending 0002');

    expect(errors).toEqual([]);
    await context.close();
  });

  test("a card that wants 3-D Secure is confirmed in Stripe.js's check, then verified", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUpAndLogIn(page, server, `secure.${Date.now()}@example.com`, 'Secret-pass-1');
    await open(page, '/card');
    await page.getByLabel('Credit or debit card number').waitFor();
    await fillBilling(page);
    await typeCard(page, '4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Save card' }).click();
    // Saving the card, then its $1 verification: the bank asks each time.
    const check = page.getByRole('dialog', { name: '3D Secure authentication' });
    for (let step = 0; step < 2; step++) {
      await check.getByRole('button', { name: 'Complete authentication' }).click();
      await check.waitFor({ state: 'detached' });
    }
    expect(await closeDialog(page, 'Success')).toContain('Card Added Successfully');
    await page.waitForURL(/\/accountInfo/);
    // Credited by the provider's payment_intent.succeeded, delivered to the service's webhook.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('account-credits').textContent();
        },
        { timeout: 30_000 },
      )
      .toBe('700');
    await context.close();
  });

  test('links from the CLI: a card added and a payment confirmed in a browser that never signed in', async () => {
    const email = `linked.${Date.now()}@example.com`;
    const apiKey = await accountWithApiKey(server, { sub: `linked-${Date.now()}`, email, credits: 0 });
    const scrub = new Scrub({ baseURL: server.url, apiKey });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();

    const link = await scrub.payments.createCardLink();
    await page.goto(link.url);
    await page.getByLabel('Credit or debit card number').waitFor();
    await fillBilling(page);
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByTestId('card-link-done').textContent()).resolves.toContain(
      'Card Added Successfully',
    );
    expect(await scrub.payments.listMethods()).toMatchObject([{ last4: '4242', is_default: true }]);
    await page.goto(link.url);
    await page.getByText(/already used/).waitFor();

    // A second saved card, one that asks for 3-D Secure on every charge, made the default.
    await scrub.payments.setDefaultMethod(
      await saveTestCard(server, email, 'pm_card_authenticationRequired'),
    );
    const refused = await scrub.payments
      .buy({ reference_code: '79541679412213', amount: 5 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationRequiredError);
    const { nextActionUrl, paymentIntentId } = refused as AuthenticationRequiredError;
    await page.goto(nextActionUrl ?? '');
    await page.getByRole('button', { name: 'Confirm with my bank' }).click();
    const check = page.getByRole('dialog', { name: '3D Secure authentication' });
    await check.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByTestId('authenticate-done').waitFor();
    const confirmed = await scrub.payments.confirm(paymentIntentId ?? '');
    expect(confirmed).toMatchObject({ status: 'succeeded', purchase: { credits_added: 2857 } });
    await context.close();
  });
});
