import { type CheckLogEntry, CheckLogFilterSchema } from '@scrub/contract';
import type { CheckPage } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { saveDownload } from '../download.js';
import { UsageError } from '../errors.js';
import { count, oneCell } from '../format.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const wholeNumber = (option: string, max: number) => {
  const rule = `${option} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule);
};

const LogOptionsSchema = z.object({
  number: z.string().optional(),
  lineType: z.string().optional(),
  dnc: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  source: z.string().optional(),
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 200).optional(),
  all: z.boolean().optional(),
  csv: z.boolean().optional(),
  output: z.string().optional(),
  file: z.string().min(1).optional(),
  search: z.string().optional(),
});

const TABLE_HEAD = ['Checked at', 'Number', 'Line type', 'DNC', 'Credits', 'Source', 'Kind'];

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-03-01 14:05:09`, in this machine's time zone. */
function checkedAt(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const SOURCES: Record<CheckLogEntry['source'], string> = {
  api_key: 'API key',
  token: 'signed in',
  act_as: 'admin acting',
};

/** One check as the table shows it. */
export function checkCells(check: CheckLogEntry): string[] {
  const number = check.line_type === 'invalid' ? check.input : check.phone_number;
  const dnc = check.dnc === null ? 'unchecked' : check.dnc === 1 ? 'DNC' : 'clean';
  return [
    checkedAt(check.checked_at),
    number,
    check.line_type,
    dnc,
    `${count(check.credits)}${check.cached ? ' (cached)' : ''}`,
    SOURCES[check.source],
    check.kind,
  ];
}

async function printTable(context: Context, checks: CheckLogEntry[]): Promise<void> {
  context.io.stdout.write(`${await renderTable(TABLE_HEAD, checks.map(checkCells), useColor(context.io))}\n`);
}

function printLines(context: Context, checks: CheckLogEntry[]): void {
  for (const check of checks) context.io.stdout.write(`${checkCells(check).map(oneCell).join('\t')}\n`);
}

function pageNote(context: Context, page: CheckPage): void {
  if (!context.io.stderr.isTTY) return;
  const total = `${count(page.total)} ${page.total === 1 ? 'check' : 'checks'}`;
  const next = page.hasNextPage() ? `: --page ${page.page + 1} for more, --all for every check` : '';
  context.io.stderr.write(`Page ${page.page} of ${page.total_pages} (${total})${next}\n`);
}

/**
 * `scrub log`: the phone log, newest first, one page (or `--all`), with the service's filters. A
 * table at a terminal, tab-separated lines in a pipe; `--json` the API's page (with `--all` one
 * check per line); `--csv` the service's CSV export, to stdout or `-o FILE`.
 */
export async function log(rawOptions: unknown, context: Context): Promise<void> {
  const { all, csv, output, page, limit, lineType, file, search, ...rest } = parseInput(
    LogOptionsSchema,
    rawOptions,
  );
  if (file !== undefined) {
    const others = [rest.from && '--from', rest.to && '--to', rest.source && '--source', csv && '--csv'];
    const refused = others.filter(Boolean);
    if (refused.length > 0)
      throw new UsageError(
        `--file reviews a bulk result: leave out ${refused.join(', ')} (scrub export REF downloads it as CSV)`,
      );
    if (all && page !== undefined) throw new UsageError('--all lists every page: leave out --page');
    const { resultRows } = await import('./result-rows.js');
    await resultRows(
      { file, search: search ?? rest.number, lineType, dnc: rest.dnc, page, limit, all },
      context,
    );
    return;
  }
  if (search !== undefined) throw new UsageError('--search looks in a bulk result: give --file REF too');
  const filter = parseInput(CheckLogFilterSchema, { ...rest, line_type: lineType });
  if (all && page !== undefined) throw new UsageError('--all lists every page: leave out --page');
  if (csv && (page !== undefined || limit !== undefined || all))
    throw new UsageError('--csv exports every matching check: leave out --page, --limit and --all');
  if (filter.from && filter.to && filter.from > filter.to)
    throw new UsageError('--to must not be before --from');
  const { scrub } = await requireCredentials(context);
  if (csv) {
    await saveDownload(context.io, await scrub.checks.export(filter), output);
    return;
  }
  const json = (await context.output()) === 'json';
  const list = scrub.checks.list({ ...filter, ...(page ? { page } : {}), ...(limit ? { limit } : {}) });
  if (all) {
    const table = !json && context.io.stdout.isTTY ? ([] as CheckLogEntry[]) : null;
    for await (const check of list) {
      if (json) context.io.stdout.write(`${JSON.stringify(check)}\n`);
      else if (table) table.push(check);
      else printLines(context, [check]);
    }
    if (table) await printTable(context, table);
    return;
  }
  const first = await list;
  if (json) context.io.stdout.write(`${JSON.stringify(first, null, 2)}\n`);
  else if (context.io.stdout.isTTY) await printTable(context, first.checks);
  else printLines(context, first.checks);
  if (!json) pageNote(context, first);
}
