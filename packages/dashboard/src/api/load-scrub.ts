import type { Scrub } from '@scrub/sdk';

/**
 * The SDK client for the shell, loaded on first use: the SDK with the contract's zod schemas and
 * the identity library is about 39 KB gzip, which the first paint does not need (it is the
 * initial-JS budget's largest saving). Screens are lazy chunks already and import `scrub` directly.
 */
export function loadScrub(): Promise<Scrub> {
  return import('./scrub-client').then((module) => module.scrub);
}

/** The signed-in person's own client, even while acting as a user (see scrub-client.ts). */
export function loadOwnScrub(): Promise<Scrub> {
  return import('./scrub-client').then((module) => module.ownScrub);
}
