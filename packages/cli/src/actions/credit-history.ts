import { type CreditHistoryEntry, CreditHistoryFilterSchema } from '@scrub/contract';
import type { CreditHistoryPageOf } from '@scrub/sdk';
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

const HistoryOptionsSchema = z.object({
  history: z.boolean().optional(),
  month: z.string().optional(),
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 200).optional(),
  all: z.boolean().optional(),
  csv: z.boolean().optional(),
  output: z.string().optional(),
});

const TABLE_HEAD = ['Date', 'Entry', 'Credits', 'Balance', 'Details'];

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-03-01 14:05`, in this machine's time zone. */
function when(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const REASONS: Record<string, string> = {
  duplicates: 'duplicates',
  invalid: 'invalid numbers',
  unanswered_lookups: 'lookups not answered',
  failed_or_cut: 'failed or cut',
  unspecified: 'duplicates and invalid numbers',
};

/** One entry as the table shows it: a give-back says why, every entry its note and reference. */
export function historyCells(entry: CreditHistoryEntry): string[] {
  const delta = `${entry.delta > 0 ? '+' : '-'}${count(Math.abs(entry.delta))}`;
  const label = entry.reason ? `${entry.label}: ${REASONS[entry.reason] ?? entry.reason}` : entry.label;
  const details = [entry.note, entry.reference].filter((part) => part).join(' · ');
  return [when(entry.created_at), label, delta, count(entry.balance_after), details];
}

async function printTable(context: Context, entries: CreditHistoryEntry[]): Promise<void> {
  context.io.stdout.write(
    `${await renderTable(TABLE_HEAD, entries.map(historyCells), useColor(context.io))}\n`,
  );
}

function printLines(context: Context, entries: CreditHistoryEntry[]): void {
  for (const entry of entries) context.io.stdout.write(`${historyCells(entry).map(oneCell).join('\t')}\n`);
}

function pageNote(context: Context, page: CreditHistoryPageOf): void {
  if (!context.io.stderr.isTTY) return;
  const total = `${count(page.total)} ${page.total === 1 ? 'entry' : 'entries'}`;
  const next = page.hasNextPage() ? `: --page ${page.page + 1} for more, --all for every entry` : '';
  context.io.stderr.write(`Page ${page.page} of ${page.total_pages} (${total})${next}\n`);
}

/**
 * `scrub credits --history`: the credit ledger, newest first, one page (or `--all`), of a month with
 * `--month`. A table at a terminal, tab-separated lines in a pipe; `--json` the API's page (with
 * `--all` one entry per line); `--csv` the service's CSV export, to stdout or `-o FILE`.
 */
export async function creditHistory(rawOptions: unknown, context: Context): Promise<void> {
  const { history, all, csv, output, page, limit, month } = parseInput(HistoryOptionsSchema, rawOptions);
  if (!history) throw new UsageError('--month, --page, --limit, --all, --csv and -o go with --history');
  const filter = parseInput(CreditHistoryFilterSchema, { month });
  if (all && page !== undefined) throw new UsageError('--all lists every page: leave out --page');
  if (csv && (page !== undefined || limit !== undefined || all))
    throw new UsageError('--csv exports every entry: leave out --page, --limit and --all');
  const { scrub } = await requireCredentials(context);
  if (csv) {
    await saveDownload(context.io, await scrub.credits.exportHistory(filter), output);
    return;
  }
  const json = (await context.output()) === 'json';
  const list = scrub.credits.history({ ...filter, ...(page ? { page } : {}), ...(limit ? { limit } : {}) });
  if (all) {
    const table = !json && context.io.stdout.isTTY ? ([] as CreditHistoryEntry[]) : null;
    for await (const entry of list) {
      if (json) context.io.stdout.write(`${JSON.stringify(entry)}\n`);
      else if (table) table.push(entry);
      else printLines(context, [entry]);
    }
    if (table) await printTable(context, table);
    return;
  }
  const first = await list;
  if (json) context.io.stdout.write(`${JSON.stringify(first, null, 2)}\n`);
  else if (context.io.stdout.isTTY) await printTable(context, first.entries);
  else printLines(context, first.entries);
  if (!json) pageNote(context, first);
}
