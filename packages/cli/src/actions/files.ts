import type { FilePage, FileView } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { UsageError } from '../errors.js';
import { count, oneCell } from '../format.js';
import { useColor } from '../io.js';
import { givenBackReasons } from '../job-credits.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const wholeNumber = (option: string, max: number) => {
  const rule = `${option} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule);
};

const FilesOptionsSchema = z.object({
  search: z.string().trim().max(255, '--search takes at most 255 characters').optional(),
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 100).optional(),
  all: z.boolean().optional(),
});

/** The export page's columns, in its order. */
const TABLE_HEAD = [
  'File name',
  'Uploaded at',
  'Status',
  'Total rows',
  'Duplicates',
  'Credits charged',
  'Reference',
  'Expires',
];

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-03-01 14:05`, in this machine's time zone. */
function uploadedAt(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** When the file's upload and result are deleted, or that they were; blank from an older server. */
function expiry(file: FileView): string {
  if (file.removed_at) return `deleted ${file.removed_at.slice(0, 10)}`;
  return file.expires_at ? file.expires_at.slice(0, 10) : '';
}

/**
 * One file as the export page shows it: what a job charged and gave back; a streamed job cut off
 * part-way kept the result of the records it charged (`scrub export REF` gives it).
 */
export function fileCells(file: FileView): string[] {
  const rows =
    file.status === 'processing'
      ? `${count(file.processed_rows)} of ${count(file.total_records)}`
      : count(file.total_records);
  const credits = file.credits ? creditsCell(file.credits) : oldCreditsCell(file);
  return [
    file.file_name,
    uploadedAt(file.created_at),
    file.part_url ? 'failed, part kept' : file.status,
    rows,
    count(file.duplicates),
    credits,
    file.file_reference,
    expiry(file),
  ];
}

/** `200 (31 given back: 9 duplicates, 22 invalid; net 169)`: the ledger's figures. */
function creditsCell(credits: NonNullable<FileView['credits']>): string {
  if (credits.given_back_total === 0) return count(credits.charged);
  return `${count(credits.charged)} (${count(credits.given_back_total)} given back: ${givenBackReasons(credits)}; net ${count(credits.net)})`;
}

/** An older server's file, without the ledger's figures. */
function oldCreditsCell(file: FileView): string {
  return file.credits_reversed > 0
    ? `${count(file.credits_charged)} (${count(file.credits_reversed)} given back)`
    : count(file.credits_charged);
}

async function printTable(context: Context, files: FileView[]): Promise<void> {
  context.io.stdout.write(`${await renderTable(TABLE_HEAD, files.map(fileCells), useColor(context.io))}\n`);
}

/** Tab-separated, for `cut` and `awk`; a file name's own tabs must not shift the columns. */
function printLines(context: Context, files: FileView[]): void {
  for (const file of files) {
    context.io.stdout.write(`${fileCells(file).map(oneCell).join('\t')}\n`);
  }
}

/** Where the list goes on, for a person reading one page of it. */
function pageNote(context: Context, page: FilePage): void {
  if (!context.io.stderr.isTTY) return;
  const total = `${page.total_files_count.toLocaleString('en-US')} ${page.total_files_count === 1 ? 'file' : 'files'}`;
  const next = page.hasNextPage() ? `: --page ${page.page + 1} for more, --all for every file` : '';
  context.io.stderr.write(`Page ${page.page} of ${page.total_pages} (${total})${next}\n`);
}

/**
 * `scrub files`: the files of bulk jobs, newest first, one page (or `--all`). A table at a terminal,
 * tab-separated lines in a pipe; `--json` prints the API's page, or with `--all` one file per line.
 */
export async function files(rawOptions: unknown, context: Context): Promise<void> {
  const { all, ...query } = parseInput(FilesOptionsSchema, rawOptions);
  if (all && query.page !== undefined) throw new UsageError('--all lists every page: leave out --page');
  const { scrub } = await requireCredentials(context);
  const json = (await context.output()) === 'json';
  const list = scrub.files.list(query);

  if (all) {
    // A table needs every row to size its columns; JSON and plain lines are printed as they come.
    const table = !json && context.io.stdout.isTTY ? ([] as FileView[]) : null;
    for await (const file of list) {
      if (json) context.io.stdout.write(`${JSON.stringify(file)}\n`);
      else if (table) table.push(file);
      else printLines(context, [file]);
    }
    if (table) await printTable(context, table);
    return;
  }

  const page = await list;
  if (json) context.io.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
  else if (context.io.stdout.isTTY) await printTable(context, page.files);
  else printLines(context, page.files);
  if (!json) pageNote(context, page);
}
