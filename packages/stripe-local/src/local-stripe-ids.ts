import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomText(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length];
  return text;
}

/** Ids shaped like Stripe's (`cus_...`, `pi_...`), so that code reading prefixes works unchanged. */
export const newId = (prefix: string) => `${prefix}_${randomText(24)}`;

/** `<intent id>_secret_<random>`: Stripe's client secrets begin with their intent's id. */
export const newClientSecret = (intentId: string) => `${intentId}_secret_${randomText(25)}`;

export const intentIdOfClientSecret = (secret: string) =>
  /^((?:pi|seti)_[A-Za-z0-9]+)_secret_/.exec(secret)?.[1] ?? null;
