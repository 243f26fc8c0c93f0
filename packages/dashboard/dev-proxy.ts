import { routes } from '@scrub/contract';

/**
 * What the local service serves beside the contract's routes, which `vite` dev must proxy too: the
 * identity stand-in (`/identity`), uploads to local blob storage (`/uploads/`), the Stripe
 * stand-in and its Stripe.js (`/_stripe`) and the local control endpoints (`/_local`).
 */
export const STAND_IN_PREFIXES = ['identity', 'uploads', '_stripe', '_local'];

/** The first segment of every contract route's path (`/dnc/numbers` gives `dnc`), with the stand-ins'. */
export function proxiedPrefixes(): string[] {
  const fromContract = Object.values(routes).map((route) => route.path.split('/')[1] ?? '');
  return [...new Set([...fromContract, ...STAND_IN_PREFIXES])].filter((prefix) => prefix !== '').sort();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Vite's proxy key: a path whose first segment is one of the service's, alone or followed by `/` or `?`. */
export function proxyPattern(): string {
  return `^/(${proxiedPrefixes().map(escapeRegExp).join('|')})(/|\\?|$)`;
}
