import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CsvCounts, CsvRowCount, CsvShape, ScrubbedCsvPart, ScrubCsvResult } from './csv-counts.ts';
import { type CsvInput, openCsv } from './csv-input.ts';
import type { CsvDialect } from './dialect.ts';
import { checkPhoneColumn } from './phone-column.ts';
import type { CountCsvOptions, ScrubCsvOptions } from './scrub-options.ts';
import { Scrubber } from './scrubber.ts';

// The entry points of a scrub. The rest is by concern: its options (`scrub-options.ts`), the phone
// column (`phone-column.ts`), what it counts (`csv-counts.ts`), the loop over a file's rows
// (`scrubber.ts`), the cells it adds (`result-cells.ts`), the rows it writes (`row-writer.ts`) and
// its duplicates (`valid-numbers.ts`).

/**
 * Scrubs a CSV file as it streams: every row back, in order, each input cell as it was written
 * (bytes copied, not re-encoded), with `Line Type` and `DNC` after the header's last column; the
 * counts a job reports. Ends `output` when done, and destroys it on failure. Throws `CsvError` for
 * a file that cannot be scrubbed. See the README's "Bulk CSV" for every rule.
 */
export async function scrubCsv(
  input: CsvInput,
  output: Writable,
  options: ScrubCsvOptions,
): Promise<ScrubCsvResult> {
  checkPhoneColumn(options.phoneColumn);
  let scrubber: Scrubber | undefined;
  await pipeline(
    async function* () {
      const opened = await openCsv(input, options.separator);
      scrubber = new Scrubber(opened, options, 'scrub');
      yield* scrubber.run(opened.chunks);
    },
    output,
    options.signal ? { signal: options.signal } : {},
  );
  return scrubber!.result();
}

/**
 * What `scrubCsv` would count, without writing anything: the quote for a file (`uniqueNumbers`
 * is the credits it costs; the same as the run's, given the same exchange data).
 */
export async function countCsv(input: CsvInput, options: CountCsvOptions): Promise<CsvCounts> {
  checkPhoneColumn(options.phoneColumn);
  const opened = await openCsv(input, options.separator);
  const scrubber = new Scrubber(opened, options, 'count');
  for await (const _ of scrubber.run(opened.chunks));
  const { dncStatus: _dnc, lineTypeSources: _sources, bytesWritten: _written, ...counts } = scrubber.result();
  return counts;
}

/**
 * The file's records and shape, refusing it as `countCsv` would (no phone column, header only,
 * empty, not text), without parsing, classifying or remembering its numbers: about twice as fast,
 * for a charge made before the numbers are known.
 */
export async function countCsvRows(
  input: CsvInput,
  options: Omit<CountCsvOptions, 'exchange' | 'dnc' | 'dncMask'>,
): Promise<CsvRowCount> {
  checkPhoneColumn(options.phoneColumn);
  const opened = await openCsv(input, options.separator);
  const scrubber = new Scrubber(opened, options, 'rows');
  for await (const _ of scrubber.run(opened.chunks));
  const { encoding, bom, separator, lineEnding, header, columns, phoneColumn, rows, blankRows } =
    scrubber.result();
  return { encoding, bom, separator, lineEnding, header, columns, phoneColumn, rows, blankRows };
}

/**
 * Scrubs one part of a file: whole rows, from a record's start to the next part's (or the file's
 * end, `last`), as UTF-8 without the byte-order mark, in the file's `dialect`. With the file's
 * `shape` (found by an earlier part), every row is data; without it, the first row sets it as in
 * `scrubCsv`. Valid numbers are handed back rather than told apart, and a part with no rows is not
 * an error: the caller merges the parts in order (`scrub-csv-parallel.ts`). Lines (in errors and
 * `unreadableLines`) count from the part's first.
 */
export function scrubCsvPart(
  bytes: Buffer,
  last: boolean,
  dialect: CsvDialect,
  shape: CsvShape | null,
  options: ScrubCsvOptions,
): ScrubbedCsvPart {
  checkPhoneColumn(options.phoneColumn);
  const scrubber = new Scrubber(dialect, options, 'scrub', shape);
  const output = [...scrubber.part(bytes, last)];
  return { output, ...scrubber.partResult() };
}

/**
 * The file's distinct valid numbers by the exchange data (10 digits as numbers, ascending): those
 * a job's service looks up before the scrub (`ScrubCsvOptions.carrier`). Read on this thread, a
 * chunk at a time; the file is refused as `countCsv` would refuse it.
 */
export async function distinctValidNumbers(
  input: CsvInput,
  options: Omit<CountCsvOptions, 'dnc' | 'dncMask'>,
): Promise<Float64Array> {
  checkPhoneColumn(options.phoneColumn);
  const opened = await openCsv(input, options.separator);
  // Without a shape yet, the scrubber keeps each valid number (as a part of a file does).
  const scrubber = new Scrubber(opened, options, 'count', null);
  for await (const _ of scrubber.run(opened.chunks));
  const numbers = Float64Array.from(scrubber.partResult().numbers).sort();
  let distinct = 0;
  for (let i = 0; i < numbers.length; i++) {
    if (i === 0 || numbers[i] !== numbers[i - 1]) numbers[distinct++] = numbers[i]!;
  }
  return numbers.slice(0, distinct);
}
