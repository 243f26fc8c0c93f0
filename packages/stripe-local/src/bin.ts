#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { LOCAL_STRIPE_KEYS, startLocalStripe } from './start-local-stripe.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '12111' },
    host: { type: 'string', default: '127.0.0.1' },
    'webhook-url': { type: 'string' },
  },
});

const running = await startLocalStripe({
  port: Number(values.port),
  host: values.host,
  webhookUrl: values['webhook-url'] ?? null,
});
process.stdout.write(
  [
    `stripe-local listening on ${running.url}`,
    `  secret key       ${LOCAL_STRIPE_KEYS.secretKey}`,
    `  publishable key  ${LOCAL_STRIPE_KEYS.publishableKey}`,
    `  webhook secret   ${LOCAL_STRIPE_KEYS.webhookSecret}`,
    `  Stripe.js        ${running.stripeJsUrl}`,
    `  new Stripe(secretKey, { host: '${values.host}', port: ${running.port}, protocol: 'http' })`,
    '',
  ].join('\n'),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
