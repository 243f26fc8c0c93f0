import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const axeSource: string = require('axe-core').source;

/** docs/screenshots at the repository's root. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

/** The system's Chromium (Debian package `chromium`): nothing downloads a browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

type Scheme = 'light' | 'dark';

/**
 * Switches the colour scheme without a reload (which would lose a wizard's state): stores it, and
 * tells Mantine's colour-scheme manager as another tab would, so the app's state follows too.
 */
async function setScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.evaluate((value) => {
    const key = 'mantine-color-scheme-value';
    window.localStorage.setItem(key, value);
    window.dispatchEvent(
      new StorageEvent('storage', { key, newValue: value, storageArea: window.localStorage }),
    );
  }, scheme);
  await page.waitForFunction(
    (value) => document.documentElement.getAttribute('data-mantine-color-scheme') === value,
    scheme,
  );
}

async function currentScheme(page: Page): Promise<Scheme> {
  return (await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))) ===
    'dark'
    ? 'dark'
    : 'light';
}

/**
 * Mantine transitions some colours (a scheme switch, a notification coming in): measure and shoot
 * once no CSS transition runs, however slow the machine (a loader's endless animation is not one).
 */
async function settled(page: Page): Promise<void> {
  // Two frames first, so that a change has been styled and its transitions exist.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => !(animation instanceof CSSTransition) || animation.playState === 'finished'),
    undefined,
    { timeout: 60_000 },
  );
}

/**
 * axe-core in the page, in both colour schemes: no serious or critical violation. Injected through
 * the debugging protocol, so the page's CSP (scripts from 'self' only) stays on.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const original = await currentScheme(page);
  await page.evaluate(axeSource);
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(page, scheme);
    // Mantine transitions some colours: measure once they have settled.
    await settled(page);
    expect(await seriousViolations(page), `${screen} (${scheme})`).toEqual([]);
  }
  await setScheme(page, original);
}

/** axe-core's serious and critical violations on the page as it is now (axe injected on first use). */
export async function seriousViolations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Violation = { id: string; help: string; impact: string; nodes: { target: string[] }[] };
    type Axe = { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> };
    const { axe } = window as unknown as { axe: Axe };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
  });
}

/**
 * The screen at 1280 px and 390 px wide, light and dark, as small viewport-sized PNGs, when
 * `SCRUB_SCREENSHOTS=1` asks for them (docs/dashboard.md). They are the documentation's pictures,
 * not a check: taking them is about a quarter of a browser test's time, and every run repaints
 * them a little differently, so the test command leaves the committed ones alone.
 */
export async function screenshot(page: Page, screen: string, scrollTo?: Locator): Promise<void> {
  if (process.env.SCRUB_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = await currentScheme(page);
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await settled(page);
      // A part of a long screen, once laid out at this width: at the top, below the 60 px header.
      await scrollTo?.evaluate((element) => {
        element.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72);
      });
      await page.screenshot({
        path: `${SCREENSHOT_DIR}${screen}-${width}-${scheme}.png`,
        animations: 'disabled',
      });
    }
  }
  await page.setViewportSize(size);
  await setScheme(page, original);
}

/** Accessibility check and screenshots of the screen now shown (from `scrollTo` down, when given). */
export async function record(page: Page, screen: string, scrollTo?: Locator): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expectAccessible(page, screen);
  await screenshot(page, screen, scrollTo);
}
