import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from './errors.js';
import { verifyWebhookSignature } from './webhook-signature.js';

const secret = 'whsec_test_secret';
const body = JSON.stringify({
  id: 'evt_1',
  type: 'job.completed',
  created: 1_780_000_000,
  data: { job: { job_id: 'j1' } },
});
const t = 1_780_000_000;
/** Signed the way the service signs (node:crypto here; the verifier uses WebCrypto). */
const sign = (payload: string, key = secret, at = t) =>
  `t=${at},v1=${createHmac('sha256', key).update(`${at}.${payload}`).digest('hex')}`;

describe('verifyWebhookSignature', () => {
  it('accepts a delivery signed with the secret and answers its event, from text or bytes', async () => {
    await expect(verifyWebhookSignature(body, sign(body), secret, { now: t + 10 })).resolves.toMatchObject({
      id: 'evt_1',
      type: 'job.completed',
    });
    const bytes = new TextEncoder().encode(body);
    await expect(verifyWebhookSignature(bytes, sign(body), secret, { now: t })).resolves.toMatchObject({
      id: 'evt_1',
    });
    // Any v1 may match (a header may carry more than one signature).
    await expect(
      verifyWebhookSignature(body, `${sign(body, 'whsec_old')},v1=${sign(body).split('v1=')[1]}`, secret, {
        now: t,
      }),
    ).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('refuses a changed body, another secret, an old timestamp and a malformed or missing header', async () => {
    const refuse = (promise: Promise<unknown>, message: RegExp) =>
      expect(promise).rejects.toThrow(
        expect.objectContaining({ name: 'WebhookSignatureError', message: expect.stringMatching(message) }),
      );
    await refuse(
      verifyWebhookSignature(body.replace('j1', 'j2'), sign(body), secret, { now: t }),
      /No signature matches/,
    );
    await refuse(
      verifyWebhookSignature(body, sign(body, 'whsec_other'), secret, { now: t }),
      /No signature matches/,
    );
    await refuse(
      verifyWebhookSignature(body, sign(body), secret, { now: t + 301 }),
      /301 s old, more than the 300 s/,
    );
    await refuse(
      verifyWebhookSignature(body, sign(body), secret, { now: t + 1000, toleranceSeconds: 600 }),
      /1000 s old/,
    );
    await refuse(verifyWebhookSignature(body, 'v1=abc', secret), /malformed/);
    await refuse(verifyWebhookSignature(body, undefined, secret), /No Scrub-Signature header/);
    await expect(verifyWebhookSignature(body, null, secret)).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});
