import { latestCode } from '@scrub/test-support/local-server';
import type { Page } from 'playwright-core';

type Service = Parameters<typeof latestCode>[0];

/** Opens a screen of the service's dashboard once its main content is there. */
export async function openScreen(page: Page, service: Service, path: string): Promise<void> {
  await page.goto(service.url + path);
  await page.locator('main').waitFor();
}

/** Sign Up, the mailed code, Log In: the new customer lands on My Account. */
export async function signUpAndLogIn(
  page: Page,
  service: Service,
  email: string,
  password: string,
): Promise<void> {
  await signUp(page, service, email, password);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/accountInfo/);
}

/** Sign Up and the mailed code: the new customer is on Log In. */
export async function signUp(page: Page, service: Service, email: string, password: string): Promise<void> {
  await openScreen(page, service, '/signup');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL(/\/confirmEmail\?email=/);
  await page.getByLabel('Verification code').fill(await latestCode(service, email));
  await page.getByRole('button', { name: 'Confirm Email' }).click();
  await page.waitForURL(/\/login/);
}
