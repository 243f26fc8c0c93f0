import type { Hash } from 'node:crypto';
import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';

/** Lines one CSV record spans, from its raw text (with or without its line break). */
export function linesSpanned(raw: string): number {
  let count = 0;
  for (let i = raw.indexOf('\n'); i !== -1; i = raw.indexOf('\n', i + 1)) count++;
  return raw.endsWith('\n') ? count : count + 1;
}

export interface CsvRecordsOptions {
  /** Default `,`. */
  delimiter?: string;
  /** Takes every byte read. */
  hash: Hash;
  /** The last line read, kept up to date as records are parsed. */
  lines: { lastLine: number };
  /** A file that is not CSV: the line where parsing stopped and why. Throws. */
  malformed: (line: number, message: string) => never;
}

/**
 * Streams a CSV (a BOM dropped, rows of any length), calling `onRecord` with each record and the
 * line it starts on. Lines are counted as csv-parse parses, so a parse error knows where its
 * record starts; csv-parse's own count drifts on CRLF inside quoted fields, so lines are counted
 * from each record's raw text.
 */
export async function readCsvRecords(
  source: Readable,
  { delimiter = ',', hash, lines, malformed }: CsvRecordsOptions,
  onRecord: (record: string[], line: number) => void,
): Promise<void> {
  // Start lines of the records parsed and not yet handed on.
  const recordLines: number[] = [];
  try {
    await pipeline(
      source,
      new Transform({
        transform(chunk: Buffer | string, _encoding, callback) {
          hash.update(chunk);
          callback(null, chunk);
        },
      }),
      parse({
        bom: true,
        delimiter,
        relax_column_count: true,
        raw: true,
        on_record: (output, context) => {
          recordLines.push(lines.lastLine + 1);
          lines.lastLine += linesSpanned(context.raw ?? '');
          return output;
        },
      }),
      new Writable({
        objectMode: true,
        write({ record }: { record: string[] }, _encoding, callback) {
          try {
            onRecord(record, recordLines.shift()!);
            callback();
          } catch (error) {
            callback(error as Error);
          }
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const message =
      error.code === 'CSV_QUOTE_NOT_CLOSED'
        ? 'a quoted field opens in this row and is never closed'
        : `malformed CSV (${error.code}): ${error.message}`;
    malformed(lines.lastLine + 1, message);
  }
}
