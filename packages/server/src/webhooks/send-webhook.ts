import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { WEBHOOK_SIGNATURE_HEADER } from '@scrub/contract';
import { serverVersion } from '../version.js';
import { publicOnlyLookup } from './endpoint-url.js';
import { signWebhook } from './webhook-signature.js';
import type { AttemptOutcome } from './webhook-store.js';

/** How long a receiver has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Why an attempt got no answer, in words. */
function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'host not found (DNS)';
    case 'ECONNRESET':
      return 'connection closed before an answer';
    case 'ETIMEDOUT':
      return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
    default:
      return error.message || String(error.code);
  }
}

/**
 * POSTs one event body, signed now with each of the endpoint's secrets (`Scrub-Signature:
 * t=...,v1=...[,v1=...]`, Stripe's scheme; two while a rotated-out secret is in its grace), and the
 * attempt's span's W3C `traceparent` when given. Any 2xx is delivered; anything else, or no answer within 10 s, is not. Never
 * throws: the outcome says what happened. Redirects are not followed.
 */
export function sendWebhook(
  target: { url: string; secrets: readonly string[]; body: string },
  { allowLocal, traceparent }: { allowLocal: boolean; traceparent?: string | undefined },
): Promise<AttemptOutcome> {
  const attemptedAt = new Date();
  const started = performance.now();
  const url = new URL(target.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'attemptedAt'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ attemptedAt, ...outcome });
    };
    const elapsed = () => Math.round(performance.now() - started);
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': `Scrub-Webhooks/${serverVersion}`,
          [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhook(target.body, target.secrets),
          // With tracing on, the receiver may continue the attempt's trace.
          ...(traceparent && { traceparent }),
        },
        ...(allowLocal ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The answer's body is not kept: read and dropped, so the connection can close.
        res.resume();
        res.on('end', () => {
          const delivered = status >= 200 && status < 300;
          finish({
            statusCode: status,
            responseMs: elapsed(),
            error: delivered ? null : `the endpoint answered ${status}`,
            delivered,
          });
        });
        res.on('error', (error) =>
          finish({ statusCode: status, responseMs: elapsed(), error: describe(error), delivered: false }),
        );
      },
    );
    // The whole exchange, not one idle spell: a receiver trickling bytes is cut off too.
    const timer = setTimeout(() => {
      finish({
        statusCode: null,
        responseMs: elapsed(),
        error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`,
        delivered: false,
      });
      req.destroy();
    }, DELIVERY_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, responseMs: null, error: describe(error), delivered: false }),
    );
    req.end(target.body);
  });
}
