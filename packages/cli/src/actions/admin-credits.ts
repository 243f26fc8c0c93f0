import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { note } from '../input.js';
import { parseInput } from '../validate.js';

const CHANGE_RULE = 'the change must be +N or -N, a whole number of credits other than 0 (e.g. +500)';
const CreditsSchema = z.object({
  change: z
    .string()
    .regex(/^[+-]?\d{1,10}$/, CHANGE_RULE)
    .transform(Number)
    .refine((n) => n !== 0 && Math.abs(n) <= 2_147_483_647, CHANGE_RULE),
  reason: z
    .string({ error: '--reason is required: say why the credits change' })
    .trim()
    .min(1, '--reason is required: say why the credits change')
    .max(500, '--reason takes at most 500 characters'),
});

/** `scrub admin credits <user> <+N|-N> --reason <text>`: prints the new balance. */
export async function adminCredits(
  user: string,
  change: string,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const { change: credits, reason } = parseInput(CreditsSchema, { ...(rawOptions as object), change });
  const { scrub } = await requireCredentials(context);
  const answer = await scrub.admin.users.adjustCredits(user, credits, reason);
  if ((await context.output()) === 'json') context.io.stdout.write(`${JSON.stringify(answer)}\n`);
  else context.io.stdout.write(`${answer.credits}\n`);
  note(context, answer.message);
}
