import type { WebhookEvent } from '@scrub/contract';
import { WebhookSignatureError } from './errors.js';

export interface VerifyWebhookOptions {
  /** How old a signature may be, in seconds (default 300), so a captured delivery cannot be replayed later. */
  toleranceSeconds?: number;
  /** The time to check against, in Unix seconds (default: now). */
  now?: number;
}

const encoder = new TextEncoder();

async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  // WebCrypto: the same code in Node (18+) and browsers, so this entry needs no Node built-in.
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Compares without stopping at the first difference, so timing tells nothing about the signature. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Checks a webhook delivery from Scrub and answers its event. `body` is the request body exactly
 * as received (the raw text or bytes, not re-serialised JSON), `header` the `Scrub-Signature`
 * header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`), `secret` the endpoint's
 * `whsec_...`. Throws `WebhookSignatureError` when the header is malformed, no `v1` matches, or the
 * timestamp is more than `toleranceSeconds` (300) away from now. Works in Node and browsers.
 */
export async function verifyWebhookSignature(
  body: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  { toleranceSeconds = 300, now = Math.floor(Date.now() / 1000) }: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (!header)
    throw new WebhookSignatureError('No Scrub-Signature header: this request was not sent by Scrub.');
  const parts = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    throw new WebhookSignatureError(
      'The Scrub-Signature header is malformed: expected t=<timestamp>,v1=<signature>.',
    );
  }
  const expected = await hmacSha256Hex(secret, `${timestamp}.${payload}`);
  if (!signatures.some((signature) => sameText(signature, expected))) {
    throw new WebhookSignatureError(
      'No signature matches this body and secret: the body was changed, or the secret is not this endpoint’s.',
    );
  }
  if (Math.abs(now - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError(
      `The signature is ${Math.abs(now - timestamp)} s old, more than the ${toleranceSeconds} s allowed: a replayed delivery?`,
    );
  }
  return JSON.parse(payload) as WebhookEvent;
}
