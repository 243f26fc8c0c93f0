import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`, as Stripe
 * signs: one `v1=` per secret given (a rotated secret's old one during its grace), in that order.
 */
export function signWebhook(
  payload: string,
  secrets: string | readonly string[],
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signatures = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a `Stripe-Signature` header as the `stripe` SDK's `constructEvent` does: any `v1` may
 * match (Stripe sends one per active secret), and the timestamp must be within `toleranceSeconds`,
 * so a captured delivery cannot be replayed later.
 */
export function checkWebhookSignature(
  payload: string,
  header: string,
  secret: string,
  toleranceSeconds = 300,
  now = Math.floor(Date.now() / 1000),
): SignatureCheck {
  const parts = header.split(',').map((part) => part.trim().split('=') as [string, string?]);
  const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    return { ok: false, reason: 'Unable to extract timestamp and signatures from header' };
  }
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex'));
  const matches = signatures.some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches)
    return { ok: false, reason: 'No signatures found matching the expected signature for payload' };
  if (Math.abs(now - timestamp) > toleranceSeconds)
    return { ok: false, reason: 'Timestamp outside the tolerance zone' };
  return { ok: true };
}
