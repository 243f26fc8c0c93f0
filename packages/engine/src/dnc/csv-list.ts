import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { findColumnByName } from '../csv/column-name.ts';
import { readCsvRecords } from '../csv/csv-records.ts';
import { parsePhone } from '../parse-phone.ts';
import { DncListBuilder } from './builder.ts';
import { type DncImport, type DncImportOptions, ProblemLog, StopReading } from './import-report.ts';
import { type DncInput, InputError, inputFiles, inputLabel } from './input.ts';

/**
 * A phone column to find in the first record: the first cell named like one of `names` makes it a
 * header and that cell's column the phone's; otherwise the first record is data, and the phone's
 * column is its first cell that reads as a US number.
 */
export interface GuessedColumn {
  names: readonly string[];
}

export interface DncCsvOptions extends DncImportOptions {
  /**
   * The column holding the phone number: its header name (trimmed, case-insensitive), its 0-based
   * index, or a guess made from the first record (`GuessedColumn`).
   */
  column: string | number | GuessedColumn;
  /** Whether the first record is a header. Default: true when `column` is a name, else false; guessed with a guess. */
  header?: boolean;
  /** Default `,`. */
  delimiter?: string;
}

export interface DncCsvListOptions extends DncCsvOptions {
  /** The list's name: `state:TX`, `internal:<account>`. */
  name: string;
}

/**
 * Reads a do-not-call list kept as CSV (a state's list, an account's own suppression list): the
 * number in one column, read with `parsePhone` as people and spreadsheets write numbers
 * (`(512) 555-0142`, `+1 512 555 0142`, `5125550142.0`). A cell that is not a US number is a bad
 * row, with its line and parsePhone's reason. Returns a new list; see `mode` for bad rows.
 */
export async function importDncCsv(input: DncInput, options: DncCsvListOptions): Promise<DncImport> {
  const label = options.source ?? inputLabel(input, `${options.name} list`);
  const log = new ProblemLog(label, options);
  const builder = new DncListBuilder(options.name);
  const hash = createHash('sha256');
  const counts = { rowsRead: 0, rowsUsed: 0 };
  let stoppedEarly = false;
  try {
    for await (const file of inputFiles(input)) {
      log.file = file.name ?? undefined;
      await readCsvFile(file.chunks, options, log, (number) => builder.add(number), counts, hash);
    }
  } catch (error) {
    if (error instanceof StopReading) stoppedEarly = true;
    else if (error instanceof InputError) log.fail(1, error.message);
    else throw error;
  }
  log.check(stoppedEarly);
  const sha256 = hash.digest('hex');
  const version = options.version ?? sha256.slice(0, 12);
  return {
    list: builder.build(version),
    report: log.report(version, counts, sha256),
  };
}

/** A state's do-not-call list, named `state:<code>` (`state:TX`). */
export async function importStateDncList(
  input: DncInput,
  options: DncCsvOptions & { state: string },
): Promise<DncImport> {
  const { state, ...rest } = options;
  if (!/^[A-Z]{2}$/.test(state))
    throw new RangeError(`A state is a 2-letter code such as TX, not "${state}"`);
  return importDncCsv(input, { ...rest, name: `state:${state}` });
}

/** An account's own suppression list, named `internal:<account>`. */
export async function importInternalDncList(
  input: DncInput,
  options: DncCsvOptions & { account: string },
): Promise<DncImport> {
  const { account, ...rest } = options;
  if (account === '') throw new RangeError('An internal list needs an account');
  return importDncCsv(input, { ...rest, name: `internal:${account}` });
}

/** Where a guessed phone column is: a header cell named like it, else the first cell that reads as a number. */
function guessColumn(
  record: string[],
  guess: GuessedColumn,
  log: ProblemLog,
  line: number,
): { column: number; header: boolean } {
  for (const name of guess.names) {
    const column = findColumnByName(record, name);
    if (column !== -1) return { column, header: true };
  }
  const column = record.findIndex((cell) => parsePhone(cell).ok);
  if (column === -1) {
    log.fail(
      line,
      `no phone column: no header named ${guess.names.map((name) => JSON.stringify(name)).join(', ')}, and no cell of the first row is a phone number (columns: ${record.map((name) => JSON.stringify(name.trim())).join(', ')}): name the column with --column`,
    );
  }
  return { column, header: false };
}

async function readCsvFile(
  chunks: AsyncIterable<Buffer>,
  options: DncCsvOptions,
  log: ProblemLog,
  add: (number: number) => void,
  counts: { rowsRead: number; rowsUsed: number },
  hash: ReturnType<typeof createHash>,
): Promise<void> {
  const guess = typeof options.column === 'object' ? options.column : null;
  const byName = typeof options.column === 'string';
  let header = options.header ?? byName;
  let column = typeof options.column === 'number' ? options.column : -1;
  if (!byName && guess === null && !(Number.isInteger(column) && column >= 0)) {
    throw new RangeError(`A column is a header name or a 0-based index, not ${options.column}`);
  }

  const accept = (record: string[], line: number) => {
    if (record.length <= 1 && (record[0] ?? '').trim() === '') return;
    if (guess !== null && column === -1) {
      const found = guessColumn(record, guess, log, line);
      column = found.column;
      if (found.header) return;
      header = false;
    }
    if (header) {
      header = false;
      if (byName) {
        column = findColumnByName(record, options.column as string);
        if (column === -1) {
          log.fail(
            line,
            `no column ${JSON.stringify(options.column)} in the header (columns: ${record.map((name) => JSON.stringify(name.trim())).join(', ')})`,
          );
        }
      }
      return;
    }
    counts.rowsRead++;
    const cell = record[column];
    if (cell === undefined) {
      log.add(
        line,
        `the row has ${record.length} field${record.length === 1 ? '' : 's'}, no column ${column}`,
      );
      return;
    }
    const parsed = parsePhone(cell);
    if (!parsed.ok) {
      log.add(line, parsed.message);
      return;
    }
    add(parsed.number);
    counts.rowsUsed++;
  };

  await readCsvRecords(
    Readable.from(chunks),
    {
      ...(options.delimiter === undefined ? {} : { delimiter: options.delimiter }),
      hash,
      lines: { lastLine: 0 },
      malformed: (line, message) => log.fail(line, message),
    },
    accept,
  );
}
