import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '@scrub/sdk';
import { WEBHOOK_EVENT_TYPES } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { CliError } from '../errors.js';
import { formatPairs, oneCell } from '../format.js';
import { note } from '../input.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const eventList = `must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`;

const AddOptionsSchema = z.object({
  events: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((event) => event.trim())
        .filter((event) => event !== ''),
    )
    .pipe(z.array(z.enum(WEBHOOK_EVENT_TYPES, `--events ${eventList}`)).min(1, `--events ${eventList}`))
    .optional(),
  description: z.string().trim().max(255, '--description takes at most 255 characters').optional(),
});

const wholeNumber = (option: string, max: number) => {
  const rule = `${option} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule);
};

const DeliveriesOptionsSchema = z.object({
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 100).optional(),
});

const json = async (context: Context) => (await context.output()) === 'json';
function print(context: Context, value: unknown): void {
  context.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The endpoint, with its secret when there is one to show (made or rotated). */
async function printEndpoint(context: Context, endpoint: WebhookEndpoint | WebhookEndpointWithSecret) {
  if (await json(context)) return print(context, endpoint);
  const pairs: [string, string][] = [
    ['id', endpoint.id],
    ['url', endpoint.url],
    ['events', endpoint.events.join(',')],
  ];
  if (endpoint.description) pairs.push(['description', endpoint.description]);
  if ('secret' in endpoint) pairs.push(['secret', endpoint.secret]);
  context.io.stdout.write(formatPairs(pairs));
}

/** `scrub webhooks add <url>` */
export async function webhooksAdd(url: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(AddOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const endpoint = await scrub.webhooks.create({
    url,
    ...(options.events ? { events: options.events } : {}),
    ...(options.description ? { description: options.description } : {}),
  });
  await printEndpoint(context, endpoint);
  note(context, 'This is the ONLY time you will see the signing secret: keep it to verify deliveries.');
}

/** `scrub webhooks list`: a table at a terminal, tab-separated lines in a pipe. */
export async function webhooksList(context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const endpoints = await scrub.webhooks.list();
  if (await json(context)) return print(context, endpoints);
  const rows = endpoints.map((e) => [e.id, e.url, e.events.join(','), e.description]);
  if (context.io.stdout.isTTY) {
    context.io.stdout.write(
      `${await renderTable(['Id', 'URL', 'Events', 'Description'], rows, useColor(context.io))}\n`,
    );
  } else {
    for (const row of rows) context.io.stdout.write(`${row.map(oneCell).join('\t')}\n`);
  }
  if (endpoints.length === 0) note(context, 'No webhook endpoints yet: scrub webhooks add <url>');
}

/** `scrub webhooks remove <id>` */
export async function webhooksRemove(endpointId: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const removed = await scrub.webhooks.remove(endpointId);
  if (await json(context)) return print(context, removed);
  note(context, `Removed ${removed.id} (${removed.url}): nothing more is sent to it.`);
}

/** `scrub webhooks rotate-secret <id>` */
const RotateOptionsSchema = z.object({
  grace: z.coerce
    .number({ error: '--grace must be a whole number of seconds from 0 to 604800' })
    .int('--grace must be a whole number of seconds from 0 to 604800')
    .min(0, '--grace must be a whole number of seconds from 0 to 604800')
    .max(604_800, '--grace must be a whole number of seconds from 0 to 604800 (a week)')
    .optional(),
});

/** `scrub webhooks rotate-secret <id> [--grace seconds]` */
export async function webhooksRotateSecret(
  endpointId: string,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const { grace } = parseInput(RotateOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const rotated = await scrub.webhooks.rotateSecret(
    endpointId,
    grace === undefined ? {} : { grace_seconds: grace },
  );
  await printEndpoint(context, rotated);
  const old = rotated.previous_secret_expires_at
    ? `the old one keeps signing beside it until ${rotated.previous_secret_expires_at}.`
    : 'the old one no longer signs.';
  note(context, `This is the ONLY time you will see the new secret; ${old}`);
}

/** What an attempt came to, in a few words. */
function answer(delivery: WebhookDelivery): string {
  if (delivery.attempts === 0) return 'not tried yet';
  const ms = delivery.response_ms === null ? '' : ` in ${delivery.response_ms} ms`;
  return delivery.error ? `${delivery.error}${ms}` : `${delivery.status_code}${ms}`;
}

/** `scrub webhooks test <id>`: exit 1 when the endpoint did not take it, so a setup script can tell. */
export async function webhooksTest(endpointId: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const delivery = await scrub.webhooks.test(endpointId);
  if (await json(context)) print(context, delivery);
  else
    context.io.stdout.write(
      formatPairs([
        ['event', delivery.event_id],
        ['status', delivery.status],
        ['answer', answer(delivery)],
      ]),
    );
  if (delivery.status !== 'delivered') {
    const retry = delivery.next_retry_at ? `; retried from ${delivery.next_retry_at}` : '';
    throw new CliError(`The test event was not delivered: ${answer(delivery)}${retry}.`, 1, 'not_delivered');
  }
}

/** `scrub webhooks deliveries <id>` */
export async function webhooksDeliveries(
  endpointId: string,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const query = parseInput(DeliveriesOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const page = await scrub.webhooks.deliveries(endpointId, query);
  if (await json(context)) return print(context, page);
  const rows = page.deliveries.map((d) => [
    d.created_at,
    d.type,
    d.event_id,
    d.status,
    String(d.attempts),
    answer(d),
    d.next_retry_at ?? '',
  ]);
  const head = ['Created', 'Type', 'Event', 'Status', 'Attempts', 'Last answer', 'Next retry'];
  if (context.io.stdout.isTTY) {
    context.io.stdout.write(`${await renderTable(head, rows, useColor(context.io))}\n`);
    note(context, `Page ${page.page} of ${page.total_pages} (${page.total_count} deliveries)`);
  } else {
    for (const row of rows) context.io.stdout.write(`${row.map(oneCell).join('\t')}\n`);
  }
}
