import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, record } from './browser';
import { signUpAndLogIn } from './sign-up';

const EMAIL = `hooks.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';
/** The machine may be loaded: wait long for what a user would see, never for a fixed time. */
const SLOW = { timeout: 60_000 };

let server: RunningServer;
let browser: Browser;
/** A receiver on this machine: every event Scrub POSTs to it, with its signature header. */
let receiver: Server;
let receiverUrl: string;
const received: { signature: string; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        signature: String(req.headers['scrub-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/scrub-events`;
  server = await startLocalServer({ SCRUB_LOG_LEVEL: 'silent' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/**
 * What the toast hides: the controls and text of the page outside it that its box overlaps (by
 * their label or text), and whether it is in the viewport at all.
 */
function underToast(toast: Locator): Promise<{ inView: boolean; covered: string[] }> {
  return toast.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const overlaps = (rect: DOMRect) =>
      rect.width > 0 &&
      rect.height > 0 &&
      rect.left < box.right &&
      rect.right > box.left &&
      rect.top < box.bottom &&
      rect.bottom > box.top;
    const shown = document.querySelectorAll(
      'button, a[href], input, textarea, select, label, td, th, h1, h2, h3, p, [role=button], [role=combobox], [role=checkbox]',
    );
    return {
      inView: box.top >= 0 && box.bottom <= window.innerHeight,
      covered: [...shown]
        .filter((other) => !element.contains(other) && overlaps(other.getBoundingClientRect()))
        .map((other) => other.getAttribute('aria-label') ?? other.textContent ?? other.tagName),
    };
  });
}

describe('the Webhooks screen in Chromium', () => {
  test('adds an endpoint from the sidebar, sends a test event that arrives signed, and shows the delivery', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(SLOW.timeout);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpAndLogIn(page, server, EMAIL, PASSWORD);

    await page.getByRole('link', { name: 'Webhooks' }).first().click();
    await page.waitForURL(/\/webhooks$/);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();

    await page.getByLabel(/Endpoint URL/).fill(receiverUrl);
    await page.getByLabel(/Description/).fill('Local receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('cell', { name: receiverUrl, exact: true }).waitFor();

    await page.getByRole('button', { name: `Send test event to ${receiverUrl}` }).click();
    await expect.poll(() => received.length, SLOW).toBe(1);
    const event = JSON.parse(received[0]!.body);
    expect(event.type).toBe('webhook.test');
    expect(received[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const log = page.getByTestId('webhook-deliveries');
    await log.getByText(event.id).waitFor();
    await expect
      .poll(() => log.locator('tbody tr').first().textContent(), SLOW)
      .toMatch(/webhook\.test.*delivered.*#1 .*answered 200/);
    await record(page, 'webhooks');

    // Rotated: a new secret, and the old one still signs for a day.
    await page.getByRole('button', { name: `Rotate secret of ${receiverUrl}` }).click();
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').textContent(), SLOW).not.toBe(secret);
    await page.getByText(/The old secret keeps signing beside it until/).waitFor();

    await page.getByRole('button', { name: `Delete ${receiverUrl}` }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No endpoints yet.').waitFor();

    // On a phone, the 'Endpoint added' toast is in view and covers no part of the form, the table
    // or any other control.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel(/Endpoint URL/).fill(receiverUrl);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const toast = page.locator('.mantine-Notification-root', { hasText: 'Endpoint added' });
    await toast.waitFor();
    await expect.poll(() => underToast(toast), { timeout: 5_000 }).toEqual({ inView: true, covered: [] });
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
