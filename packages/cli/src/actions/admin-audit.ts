import type { AuditEntry } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { oneCell } from '../format.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const wholeNumber = (option: string, max: number) => {
  const rule = `${option} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule);
};
const AuditOptionsSchema = z.object({
  user: z.uuid('--user takes an account id (scrub admin user <email> shows it)').optional(),
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 100).optional(),
});

const HEAD = ['When', 'Who', 'As / about', 'What', 'Detail'];
const cells = (e: AuditEntry) => [
  e.at,
  e.actor_email,
  e.subject_email ?? '',
  e.action,
  JSON.stringify(e.detail),
];

/** `scrub admin audit`: one page of the audit log, newest first. */
export async function adminAudit(rawOptions: unknown, context: Context): Promise<void> {
  const { user, ...query } = parseInput(AuditOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const page = await scrub.admin.audit.list({ ...query, ...(user ? { subject_id: user } : {}) });
  const { stdout } = context.io;
  if ((await context.output()) === 'json') stdout.write(`${JSON.stringify(page, null, 2)}\n`);
  else if (stdout.isTTY)
    stdout.write(`${await renderTable(HEAD, page.entries.map(cells), useColor(context.io))}\n`);
  else for (const entry of page.entries) stdout.write(`${cells(entry).map(oneCell).join('\t')}\n`);
}
