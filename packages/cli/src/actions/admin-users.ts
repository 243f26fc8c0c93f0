import { ROLE_NAMES } from '@scrub/contract';
import type { AdminUserPage, ManagedUser } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { UsageError } from '../errors.js';
import { count, formatPairs, oneCell } from '../format.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const wholeNumber = (option: string, max: number) => {
  const rule = `${option} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule);
};

const UsersOptionsSchema = z.object({
  search: z.string().trim().max(255, '--search takes at most 255 characters').optional(),
  role: z.enum(ROLE_NAMES, { error: `--role must be one of ${ROLE_NAMES.join(', ')}` }).optional(),
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 100).optional(),
  all: z.boolean().optional(),
});

const TABLE_HEAD = ['Id', 'Name', 'Email', 'Role', 'Credits', 'Status'];
const cells = (u: ManagedUser) => [u.user_id, u.full_name, u.email, u.role_name, count(u.credits), u.status];

async function print(context: Context, users: ManagedUser[], json: boolean): Promise<void> {
  const { stdout } = context.io;
  if (json) for (const user of users) stdout.write(`${JSON.stringify(user)}\n`);
  else if (stdout.isTTY)
    stdout.write(`${await renderTable(TABLE_HEAD, users.map(cells), useColor(context.io))}\n`);
  else for (const user of users) stdout.write(`${cells(user).map(oneCell).join('\t')}\n`);
}

function pageNote(context: Context, page: AdminUserPage): void {
  if (!context.io.stderr.isTTY) return;
  const next = page.hasNextPage() ? `: --page ${page.page + 1} for more, --all for every account` : '';
  context.io.stderr.write(
    `Page ${page.page} of ${page.total_pages} (${count(page.total_users_count)} accounts)${next}\n`,
  );
}

/** `scrub admin users`: a table at a terminal, tab-separated lines in a pipe, NDJSON with --json. */
export async function adminUsers(rawOptions: unknown, context: Context): Promise<void> {
  const { all, ...query } = parseInput(UsersOptionsSchema, rawOptions);
  if (all && query.page !== undefined) throw new UsageError('--all lists every page: leave out --page');
  const { scrub } = await requireCredentials(context);
  const json = (await context.output()) === 'json';
  const list = scrub.admin.users.list(query);
  if (all) {
    const users: ManagedUser[] = [];
    for await (const user of list) users.push(user);
    await print(context, users, json);
    return;
  }
  const page = await list;
  await print(context, page.users, json);
  if (!json) pageNote(context, page);
}

/** `scrub admin user <email|id>`: what the admin page's User Information shows. */
export async function adminUser(user: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const info = await scrub.admin.users.get(user);
  if ((await context.output()) === 'json') {
    context.io.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
    return;
  }
  context.io.stdout.write(
    `${formatPairs([
      ['Id', info.userId],
      ['Email', info.email],
      ['Name', info.user_name],
      ['Role', info.role.name],
      ['Status', info.status],
      ['Agency', info.agency?.email ?? 'none'],
      ['Credits', info.credits_remaining === 'unlimited' ? 'unlimited' : count(info.credits)],
      ['Plan', `${info.plan} (${info.user_plan_status})`],
      ['API key', info.api_key_last4 ? `...${info.api_key_last4}` : 'none'],
      ['Created', info.created_at],
      ['Last sign-in', info.last_sign_in_at ?? 'never'],
    ])}\n`,
  );
}
