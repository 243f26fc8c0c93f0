import { type MappableField, type ResultRow, ResultRowsQuerySchema } from '@scrub/contract';
import type { ResultRowsPageOf } from '@scrub/sdk';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { count, oneCell } from '../format.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

/** `scrub log --file REF`'s choices, as `scrub log` parsed them. */
export interface ResultRowsOptions {
  file: string;
  search?: string | undefined;
  lineType?: string | undefined;
  dnc?: string | undefined;
  page?: number | undefined;
  limit?: number | undefined;
  all?: boolean | undefined;
}

/** The mapped fields a review shows beside the number, in this order, and their headings. */
const SHOWN: readonly [MappableField, string][] = [
  ['full_name', 'Name'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['business_name', 'Business'],
  ['email', 'E-mail'],
];

/** Where a page's columns are: the number, its answer and the mapped fields shown. */
interface Layout {
  head: string[];
  columns: (number | null)[];
}

function layoutOf(page: ResultRowsPageOf): Layout {
  const shown = SHOWN.filter(([field]) => page.mapped[field] !== undefined);
  return {
    head: ['Row', 'Number', 'Line type', 'DNC', ...shown.map(([, heading]) => heading)],
    columns: [
      page.phone_column,
      page.line_type_column,
      page.dnc_column,
      ...shown.map(([field]) => page.mapped[field]!),
    ],
  };
}

function rowCells(layout: Layout, row: ResultRow): string[] {
  return [
    String(row.row),
    ...layout.columns.map((column) => (column === null ? '' : (row.cells[column] ?? ''))),
  ];
}

function pageNote(context: Context, page: ResultRowsPageOf): void {
  if (!context.io.stderr.isTTY) return;
  const total = `${count(page.total_rows)} ${page.total_rows === 1 ? 'row' : 'rows'}`;
  const next = page.hasNextPage() ? `: --page ${page.page + 1} for more, --all for every row` : '';
  context.io.stderr.write(`Page ${page.page} of ${page.total_pages} (${total})${next}\n`);
}

/**
 * `scrub log --file REF`: a bulk result reviewed row by row, read a page at a time on the service:
 * the row's number, line type and DNC, and the mapped name and e-mail. A table at a terminal,
 * tab-separated lines in a pipe; `--json` the API's page (with `--all`, one row per line).
 */
export async function resultRows(options: ResultRowsOptions, context: Context): Promise<void> {
  const query = parseInput(ResultRowsQuerySchema.partial(), {
    search: options.search,
    line_type: options.lineType,
    dnc: options.dnc,
    page: options.page,
    per_page: options.limit,
  });
  const { scrub } = await requireCredentials(context);
  const json = (await context.output()) === 'json';
  const list = scrub.files.rows(options.file, query);
  const first = await list;
  const layout = layoutOf(first);
  const table = !json && context.io.stdout.isTTY;
  const lines = (rows: ResultRow[]) => {
    for (const row of rows) context.io.stdout.write(`${rowCells(layout, row).map(oneCell).join('\t')}\n`);
  };
  if (options.all) {
    const rows: ResultRow[] = [];
    for await (const row of list) {
      if (json) context.io.stdout.write(`${JSON.stringify(row)}\n`);
      else if (table) rows.push(row);
      else lines([row]);
    }
    if (table)
      context.io.stdout.write(
        `${await renderTable(
          layout.head,
          rows.map((row) => rowCells(layout, row)),
          useColor(context.io),
        )}\n`,
      );
    return;
  }
  if (json) context.io.stdout.write(`${JSON.stringify(first, null, 2)}\n`);
  else if (table)
    context.io.stdout.write(
      `${await renderTable(
        layout.head,
        first.rows.map((row) => rowCells(layout, row)),
        useColor(context.io),
      )}\n`,
    );
  else lines(first.rows);
  if (!json) pageNote(context, first);
}
