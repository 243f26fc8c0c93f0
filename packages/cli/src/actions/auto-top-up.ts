import type { AutoTopUpSettings, UpdateAutoTopUp } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { UsageError } from '../errors.js';
import { count, formatPairs } from '../format.js';
import { findPlan } from '../plan-choice.js';
import { parseInput } from '../validate.js';

const credits = (flag: string) =>
  z.coerce
    .number({ error: `${flag} must be a number of credits, e.g. ${flag} 1000` })
    .int(`${flag} must be a whole number of credits`)
    .positive(`${flag} must be more than 0`)
    .optional();

const AutoTopUpOptionsSchema = z.object({
  on: z.boolean().optional(),
  off: z.boolean().optional(),
  below: credits('--below'),
  plan: z.string().optional(),
  amount: z.coerce
    .number({ error: '--amount must be a number of dollars, e.g. --amount 10' })
    .positive('--amount must be more than 0')
    .optional(),
  // Commander: `--low-balance <n>` gives a string, `--no-low-balance` gives false.
  lowBalance: z.union([z.literal(false), credits('--low-balance')]).optional(),
});

/**
 * `scrub account auto-top-up` shows auto top-up and the low-balance e-mail; with options it sets
 * them: `--on --below 1000 --plan "flexible credits" --amount 10`, `--off`, `--low-balance 5000`,
 * `--no-low-balance`.
 */
export async function autoTopUp(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(AutoTopUpOptionsSchema, rawOptions);
  if (options.on && options.off) throw new UsageError('--on and --off: choose one');
  const { scrub } = await requireCredentials(context);
  const change: UpdateAutoTopUp = {
    ...(options.on ? { enabled: true } : {}),
    ...(options.off ? { enabled: false } : {}),
    ...(options.below !== undefined ? { threshold: options.below } : {}),
    ...(options.plan !== undefined
      ? { plan_reference: (await findPlan(scrub, options.plan)).plan_reference }
      : {}),
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    ...(options.lowBalance !== undefined ? { low_balance_threshold: options.lowBalance || null } : {}),
  };
  const settings =
    Object.keys(change).length > 0
      ? await scrub.purchases.setAutoTopUp(change)
      : await scrub.purchases.getAutoTopUp();
  await printSettings(context, settings);
}

async function printSettings(context: Context, settings: AutoTopUpSettings): Promise<void> {
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(settings, null, 2)}\n`);
    return;
  }
  const pack = settings.plan_name
    ? `${settings.plan_name}${settings.amount !== null ? ` ($${settings.amount}${settings.credits !== null ? `, ${count(settings.credits)} credits` : ''})` : ''}`
    : 'none chosen (--plan)';
  const status = {
    active: `on: below ${count(settings.threshold)} credits, the default card buys the pack`,
    off: 'off',
    stopped: `stopped: ${settings.stopped_reason ?? 'the card was declined'} Turn it on again with --on.`,
  }[settings.status];
  const last = settings.last_attempt;
  stdout.write(
    formatPairs([
      ['Auto top-up', status],
      ['Pack', pack],
      [
        'Low-balance e-mail',
        settings.low_balance_threshold === null
          ? 'off'
          : `below ${count(settings.low_balance_threshold)} credits`,
      ],
      ...(last
        ? [
            [
              'Last top-up',
              `${last.created_at.slice(0, 10)} ${last.status}${last.message ? `: ${last.message}` : ''}`,
            ] as [string, string],
          ]
        : []),
    ]),
  );
}
