import { readFile, stat } from 'node:fs/promises';
import { type DncChange, type DncEntry, MAX_DNC_NUMBERS_PER_CALL, MAX_INLINE_CSV_CHARS } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { saveDownload } from '../download.js';
import { CliError, UsageError } from '../errors.js';
import { count, formatPairs } from '../format.js';
import { readLines } from '../io.js';
import { parseInput } from '../validate.js';

const wholeNumber = (option: string, max: number) => {
  const rule = `${option} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule);
};

const ImportOptionsSchema = z.object({
  merge: z.boolean().optional(),
  replace: z.boolean().optional(),
  phoneCol: z.string().trim().min(1, '--phone-col needs a column name or position'),
  header: z.boolean().optional(),
});

const ListOptionsSchema = z.object({
  search: z.string().trim().max(40, '--search takes at most 40 characters').optional(),
  page: wholeNumber('--page', Number.MAX_SAFE_INTEGER).optional(),
  limit: wholeNumber('--limit', 1000).optional(),
  all: z.boolean().optional(),
});

const ExportOptionsSchema = z.object({ output: z.string().optional() });

/** The numbers on the command line, or with `-` one per line from stdin. */
async function numbersFrom(numbers: string[], context: Context, command: string): Promise<string[]> {
  if (numbers.length === 1 && numbers[0] === '-') {
    const { stdin, stderr } = context.io;
    if (stdin.isTTY) stderr.write('Reading numbers from stdin, one per line; end with Ctrl-D.\n');
    const read: string[] = [];
    for await (const line of readLines(stdin)) if (line.trim()) read.push(line.trim());
    if (read.length === 0) throw new UsageError(`scrub suppression ${command} - read no numbers from stdin`);
    return read;
  }
  if (numbers.includes('-')) {
    throw new UsageError(
      `- reads the numbers from stdin, so it comes alone: scrub suppression ${command} - < numbers.txt`,
    );
  }
  return numbers;
}

/** Sends the numbers in calls of at most 10,000 and adds up what they did; rejected indexes count from the first number. */
async function inCalls(numbers: string[], call: (batch: string[]) => Promise<DncChange>): Promise<DncChange> {
  let total: DncChange | null = null;
  for (let at = 0; at < numbers.length; at += MAX_DNC_NUMBERS_PER_CALL) {
    const change = await call(numbers.slice(at, at + MAX_DNC_NUMBERS_PER_CALL));
    const rejected = change.rejected.map((r) => ({ ...r, index: r.index + at }));
    total =
      total === null
        ? { ...change, rejected }
        : {
            changed: total.changed + change.changed,
            unchanged: total.unchanged + change.unchanged,
            rejected: [...total.rejected, ...rejected],
            rejected_count: total.rejected_count + change.rejected_count,
            summary: change.summary,
          };
  }
  return total!;
}

/** What a change did, for people (stdout) or as JSON; unreadable numbers go to stderr. */
async function report(
  context: Context,
  change: DncChange,
  verb: 'Added' | 'Removed' | 'Imported',
): Promise<void> {
  const { stdout, stderr } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(change, null, 2)}\n`);
  } else {
    const unchanged = verb === 'Removed' ? 'Not on the list' : 'Already on the list';
    stdout.write(
      formatPairs([
        [verb === 'Imported' ? 'Changed' : verb, count(change.changed)],
        [unchanged, count(change.unchanged)],
        ['Not read', count(change.rejected_count)],
        ['On your list', count(change.summary.count)],
      ]),
    );
    for (const rejected of change.rejected) {
      const where =
        verb === 'Imported' ? `line ${rejected.index}` : `#${rejected.index + 1} ${rejected.input ?? ''}`;
      stderr.write(`Not read: ${where}: ${rejected.message}\n`);
    }
  }
  if (change.rejected_count > 0 && change.changed + change.unchanged === 0) {
    throw new CliError('No number could be read: nothing was changed.');
  }
}

/** `scrub suppression add <numbers...>`. */
export async function suppressionAdd(numbers: string[], context: Context): Promise<void> {
  const phones = await numbersFrom(numbers, context, 'add');
  const { scrub } = await requireCredentials(context);
  await report(context, await inCalls(phones, (batch) => scrub.suppression.add(batch)), 'Added');
}

/** `scrub suppression remove <numbers...>`. */
export async function suppressionRemove(numbers: string[], context: Context): Promise<void> {
  const phones = await numbersFrom(numbers, context, 'remove');
  const { scrub } = await requireCredentials(context);
  await report(context, await inCalls(phones, (batch) => scrub.suppression.remove(batch)), 'Removed');
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

async function csvText(file: string, context: Context): Promise<string> {
  if (file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
    }
  }
  if (context.io.stdin.isTTY)
    throw new UsageError('- reads the CSV from stdin: pipe it, as in scrub suppression import - < list.csv');
  let text = '';
  for await (const chunk of context.io.stdin) text += chunk.toString();
  return text;
}

/** `scrub suppression import <file|-> [--merge|--replace] [--phone-col]`. */
export async function suppressionImport(file: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(ImportOptionsSchema, rawOptions);
  if (options.merge && options.replace) throw new UsageError('--merge and --replace cannot be used together');
  const column = /^\d+$/.test(options.phoneCol) ? Number(options.phoneCol) : options.phoneCol;
  const params = {
    mode: options.replace ? ('replace' as const) : ('merge' as const),
    phone_col: column,
    // commander's --no-header gives false; left out, the service decides from the column.
    ...(options.header === false ? { header: false } : {}),
  };
  // A file over the inline limit goes by upload, streamed from the disk; stdin is read, then sent
  // inline or by upload as its size says (the SDK chooses).
  const size = file === '-' ? 0 : await fileSize(file);
  const { scrub } = await requireCredentials(context);
  const change =
    size > MAX_INLINE_CSV_CHARS
      ? await scrub.suppression.importFile(file, params)
      : await scrub.suppression.import(await csvText(file, context), params);
  await report(context, change, 'Imported');
}

function printEntries(context: Context, entries: DncEntry[], json: boolean): void {
  for (const entry of entries) {
    context.io.stdout.write(
      json ? `${JSON.stringify(entry)}\n` : `${entry.phone_number}\t${entry.added_at}\n`,
    );
  }
}

/** `scrub suppression list`: one number per line (number, tab, when added); `--json` prints the API's page. */
export async function suppressionList(rawOptions: unknown, context: Context): Promise<void> {
  const { all, ...query } = parseInput(ListOptionsSchema, rawOptions);
  if (all && query.page !== undefined) throw new UsageError('--all lists every page: leave out --page');
  const { scrub } = await requireCredentials(context);
  const json = (await context.output()) === 'json';
  const list = scrub.suppression.list(query);
  if (all) {
    for await (const entry of list) printEntries(context, [entry], json);
    return;
  }
  const page = await list;
  if (json) context.io.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
  else printEntries(context, page.numbers, false);
  if (!json && context.io.stderr.isTTY) {
    const next = page.hasNextPage() ? `: --page ${page.page + 1} for more, --all for every number` : '';
    context.io.stderr.write(
      `Page ${page.page} of ${page.total_pages} (${count(page.total_count)} numbers)${next}\n`,
    );
  }
}

/** `scrub suppression export [-o file]`: the whole list as CSV. */
export async function suppressionExport(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(ExportOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  await saveDownload(context.io, await scrub.suppression.export(), options.output);
}
