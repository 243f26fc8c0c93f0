import type { FileView } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { UsageError } from '../errors.js';
import { fileNameOption } from '../file-name-option.js';
import { count, formatPairs } from '../format.js';
import { localCsv } from '../local-csv.js';
import { parseInput } from '../validate.js';

const column = (option: string) => z.string().trim().min(1, `${option} needs a column name or number`);

const UploadExistingOptionsSchema = z.object({
  phoneCol: column('--phone-col'),
  lineTypeCol: column('--line-type-col'),
  dncCol: column('--dnc-col').optional(),
  name: fileNameOption,
});

/** A header text, or a position counted from 1 as people and spreadsheets count (the API counts from 0). */
function columnRef(option: string, spec: string): string | number {
  if (!/^\d+$/.test(spec)) return spec;
  const position = Number(spec);
  if (position < 1) throw new UsageError(`${option} counts columns from 1: the first column is 1`);
  return position - 1;
}

const counts = (byKey: Record<string, number>) =>
  Object.entries(byKey)
    .map(([key, n]) => `${key} ${count(n)}`)
    .join(', ') || '-';

async function printFile(context: Context, file: FileView): Promise<void> {
  if ((await context.output()) === 'json') {
    context.io.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
    return;
  }
  context.io.stdout.write(
    formatPairs([
      ['File', file.file_name],
      ['Reference', file.file_reference],
      ['Status', `${file.status} (Direct DB)`],
      ['Rows', count(file.total_records)],
      ['Duplicates', count(file.duplicates)],
      ['Credits', `${count(file.credits_charged)} charged`],
      ['Line types', counts(file.line_types)],
      ['DNC', counts(file.dnc_status)],
    ]),
  );
}

/** `scrub upload-existing <file|->`: the dashboard's Upload Existing Files, from a shell or a pipe. */
export async function uploadExisting(file: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(UploadExistingOptionsSchema, rawOptions);
  if (file === '-' && context.io.stdin.isTTY) {
    throw new UsageError(
      'scrub upload-existing - reads the CSV from a pipe: cat scrubbed.csv | scrub upload-existing - --phone-col Phone --line-type-col "Line Type"',
    );
  }
  const phoneCol = columnRef('--phone-col', options.phoneCol);
  const lineTypeCol = columnRef('--line-type-col', options.lineTypeCol);
  const dncCol = options.dncCol === undefined ? undefined : columnRef('--dnc-col', options.dncCol);
  const { scrub } = await requireCredentials(context);
  const csv = await localCsv(file, context);
  try {
    const params = {
      file_name: options.name ?? csv.name,
      phone_col: phoneCol,
      line_type_col: lineTypeCol,
      ...(dncCol === undefined ? {} : { dnc_col: dncCol }),
    };
    await printFile(context, await scrub.files.uploadExisting(csv.path, params));
  } finally {
    await csv.remove();
  }
}
