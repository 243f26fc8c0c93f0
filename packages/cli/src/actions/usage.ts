import { USAGE_INTERVALS, type UsageFigures, UsageQuerySchema, type UsageReport } from '@scrub/contract';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { saveDownload } from '../download.js';
import { UsageError } from '../errors.js';
import { count, oneCell } from '../format.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const UsageOptionsSchema = z.object({
  from: z.string().optional(),
  to: z.string().optional(),
  interval: z.enum(USAGE_INTERVALS, { error: '--interval must be day or week' }).optional(),
  account: z.string().optional(),
  csv: z.boolean().optional(),
  output: z.string().optional(),
});

const FIGURE_HEAD = [
  'Checks',
  'API key',
  'Dashboard',
  'Batch',
  'Bulk rows',
  'DNC hit rate',
  'Spent',
  'Bought',
  'Jobs',
  'Cached',
  'Free',
];

const percent = (rate: number | null) => (rate === null ? '-' : `${(rate * 100).toFixed(1)}%`);

/** The figures as a table's cells, after the row's own label. */
function figureCells(figures: UsageFigures): string[] {
  const { checks, dnc, credits } = figures;
  return [
    ...[checks.total, checks.api_key, checks.dashboard, checks.batch, checks.bulk].map(count),
    percent(dnc.hit_rate),
    count(credits.spent),
    count(credits.bought),
    count(figures.jobs),
    count(figures.cached),
    count(figures.free),
  ];
}

/** `mobile 12, landline 3`: the line-type mix, most first. */
function lineTypeMix(figures: UsageFigures): string {
  const mix = Object.entries(figures.line_types)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return mix.length === 0 ? 'none' : mix.map(([type, n]) => `${type} ${count(n)}`).join(', ');
}

async function printTables(context: Context, report: UsageReport): Promise<void> {
  const color = useColor(context.io);
  const { stdout } = context.io;
  const rows = report.intervals.map((interval) => [interval.start, ...figureCells(interval)]);
  rows.push(['Total', ...figureCells(report.total)]);
  stdout.write(
    `${await renderTable([report.interval === 'day' ? 'Day' : 'Week of', ...FIGURE_HEAD], rows, color)}\n`,
  );
  stdout.write(`Line types: ${lineTypeMix(report.total)}\n`);
  if (report.accounts.length > 1) {
    const byAccount = report.accounts.map((account) => [account.email, ...figureCells(account.figures)]);
    stdout.write(`${await renderTable(['Account', ...FIGURE_HEAD], byAccount, color)}\n`);
  }
}

/** Tab-separated lines for pipes: one per interval, with the interval's first day first. */
function printLines(context: Context, report: UsageReport): void {
  for (const interval of report.intervals)
    context.io.stdout.write(`${[interval.start, ...figureCells(interval)].map(oneCell).join('\t')}\n`);
}

/**
 * `scrub usage`: Client Performance in the terminal. A table by interval with the total, the
 * line-type mix and (an Agency) a table by client; tab-separated lines in a pipe; `--json` the
 * API's answer; `--csv` the service's CSV export, to stdout or `-o FILE`.
 */
export async function usage(rawOptions: unknown, context: Context): Promise<void> {
  const { csv, output, ...rest } = parseInput(UsageOptionsSchema, rawOptions);
  if (rest.from && rest.to && rest.from > rest.to) throw new UsageError('--to must not be before --from');
  const query = parseInput(UsageQuerySchema, rest);
  if (output && !csv) throw new UsageError('-o writes the CSV export: add --csv');
  const { scrub } = await requireCredentials(context);
  if (csv) {
    await saveDownload(context.io, await scrub.usage.export(query), output);
    return;
  }
  const report = await scrub.usage.get(query);
  if ((await context.output()) === 'json') context.io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (context.io.stdout.isTTY) await printTables(context, report);
  else printLines(context, report);
}
