import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { count } from '../format.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const PurchasesOptionsSchema = z
  .object({
    year: z.coerce.number({ error: '--year must be a year, e.g. 2026' }).int().min(2000).max(2100).optional(),
    month: z.coerce
      .number({ error: '--month must be 1 to 12' })
      .int()
      .min(1, '--month must be 1 to 12')
      .max(12, '--month must be 1 to 12')
      .optional(),
    limit: z.coerce.number({ error: '--limit must be 1 to 100' }).int().min(1).max(100).default(20),
  })
  .refine((o) => o.month === undefined || o.year !== undefined, { message: '--month needs --year' });

/** The caller's purchase history, or (`user`, for admins) another account's. */
export async function purchases(rawOptions: unknown, context: Context, user?: string): Promise<void> {
  const options = parseInput(PurchasesOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const query = {
    ...(options.year !== undefined ? { year: options.year } : {}),
    ...(options.month !== undefined ? { month: options.month } : {}),
    per_page: options.limit,
  };
  const rows =
    user === undefined
      ? await scrub.purchases.list(query)
      : (await scrub.admin.users.purchases(user, query)).purchases;
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const cells = rows.map((p) => [
    p.purchase_date.slice(0, 10),
    p.plan_name,
    `$${p.purchase_amount}`,
    count(p.credits_added),
    p.refunded_amount > 0 ? `$${p.refunded_amount}` : '',
    p.purchase_id,
  ]);
  stdout.write(
    `${await renderTable(['Date', 'Plan', 'Amount', 'Credits', 'Refunded', 'Id'], cells, useColor(context.io))}\n`,
  );
}
