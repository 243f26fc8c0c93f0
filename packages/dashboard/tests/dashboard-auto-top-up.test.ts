import { Scrub } from '@scrub/sdk';
import { type RunningServer, rotateApiKey } from '@scrub/server';
import { saveTestCard, startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `topup.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };
const address = {
  customer_name: 'Ada Buyer',
  line1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postal_code: '07102',
};

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

async function choosePack(page: Page, name: string): Promise<void> {
  await page.getByTestId('auto-top-up').getByRole('combobox', { name: 'Pack to buy' }).click();
  await page.getByRole('option', { name }).click();
}

/** The element shows `text`, all of it on screen: nothing cut off at its right edge. */
async function expectReadWhole(element: Locator, text: string): Promise<void> {
  await expect(element.textContent()).resolves.toBe(text);
  const width = await element.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);
}

describe('auto top-up on My Account in Chromium', () => {
  test('set with a card that is declined: the customer is told on the page and by e-mail', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);
    await page.getByTestId('auto-top-up').waitFor();

    // A first card (700 credits from its verification), then one whose charges are all refused,
    // made the default, as the card page would have saved them.
    const { db } = server.database;
    const profile = await db
      .selectFrom('profiles')
      .select('id')
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    const scrub = new Scrub({ baseURL: server.url, apiKey: (await rotateApiKey(db, profile.id)).api_key });
    await scrub.cards.setup({ ...address, payment_method_id: 'pm_card_visa' });
    await scrub.cards.setDefaultMethod(await saveTestCard(server, EMAIL, 'pm_card_chargeCustomerFail'));

    await page.reload();
    const card = page.getByTestId('auto-top-up');
    await card.getByRole('switch', { name: 'Auto top-up' }).check({ force: true });
    await card.getByLabel('Buy when the balance falls below (credits)').fill('700');
    // On a phone, the longest pack's name is read whole (it wraps), not cut short.
    await page.setViewportSize({ width: 390, height: 844 });
    await choosePack(page, 'FLEXIBLE CREDITS: $100 (57,142 credits)');
    await expectReadWhole(
      card.getByRole('combobox', { name: 'Pack to buy' }),
      'FLEXIBLE CREDITS: $100 (57,142 credits)',
    );
    await page.setViewportSize({ width: 1280, height: 800 });
    await choosePack(page, 'FLEXIBLE CREDITS: $5 (2,857 credits)');
    await card.getByLabel(/E-mail me when the balance falls below/).fill('700');
    await card.getByRole('button', { name: 'Save auto top-up' }).click();
    await page.getByText('Auto top-up saved').waitFor();
    await record(page, 'auto-top-up', card);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectReadWhole(
      card.getByRole('combobox', { name: 'Pack to buy' }),
      'FLEXIBLE CREDITS: $5 (2,857 credits)',
    );
    await page.setViewportSize({ width: 1280, height: 800 });

    // A check takes the balance to 699: the top-up is tried, refused, and stops.
    await scrub.verify('2012345678');
    await expect
      .poll(
        async () => {
          await page.reload();
          return page
            .getByTestId('auto-top-up-stopped')
            .textContent({ timeout: 5_000 })
            .catch(() => '');
        },
        { timeout: 30_000 },
      )
      .toMatch(/declined/i);
    await expect(card.getByRole('switch', { name: 'Auto top-up' }).isChecked()).resolves.toBe(false);
    await card
      .getByTestId('auto-top-up-last')
      .getByText(/declined/)
      .waitFor();
    await record(page, 'auto-top-up-stopped', card);
    const mails = await db.selectFrom('mail_outbox').select('kind').where('to_address', '=', EMAIL).execute();
    expect(mails.map((mail) => mail.kind)).toEqual(
      expect.arrayContaining(['auto_top_up_declined', 'low_balance']),
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
