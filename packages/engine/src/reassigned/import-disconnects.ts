import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import {
  type DncImportOptions,
  type DncImportReport,
  ProblemLog,
  StopReading,
} from '../dnc/import-report.ts';
import { type DncInput, InputError, inputFiles, inputLabel } from '../dnc/input.ts';
import { parsePhone } from '../parse-phone.ts';
import { DisconnectList, dateOfDay, dayOf } from './disconnect-list.ts';

export interface DisconnectImportOptions extends DncImportOptions {
  /** The last day the file speaks for (`YYYY-MM-DD`), as its publisher dated it. Required. */
  asOf: string;
  /**
   * The first day it speaks for (`YYYY-MM-DD`). Default: its earliest disconnect date, the
   * cautious reading: before it, the file answers no data rather than "not disconnected".
   */
  from?: string;
  /** Default `,`. */
  delimiter?: string;
}

export interface DisconnectImport {
  list: DisconnectList;
  report: DncImportReport;
}

/**
 * Reads a file of permanent disconnections: a number and its disconnect date per row (`YYYY-MM-DD`
 * or `M/D/YYYY`), CSV, plain, gzip or zip; a first row that is neither is a header. A date after
 * the file's as-of date, or a cell that is not a US number or a date, is a bad row.
 */
export async function importDisconnects(
  input: DncInput,
  options: DisconnectImportOptions,
): Promise<DisconnectImport> {
  const asOfDay = dayOf(options.asOf);
  if (Number.isNaN(asOfDay)) throw new RangeError(`The as-of date is YYYY-MM-DD, not ${options.asOf}`);
  const fromDay = options.from === undefined ? null : dayOf(options.from);
  if (fromDay !== null && (Number.isNaN(fromDay) || fromDay > asOfDay)) {
    throw new RangeError(`The first date (${options.from}) is YYYY-MM-DD, on or before ${options.asOf}`);
  }
  const log = new ProblemLog(options.source ?? inputLabel(input, 'disconnects file'), options);
  const hash = createHash('sha256');
  const entries: [number, number][] = [];
  let rowsRead = 0;
  let stoppedEarly = false;
  let line = 0;
  try {
    for await (const file of inputFiles(input)) {
      log.file = file.name ?? undefined;
      line = 0;
      const hashed = Readable.from(file.chunks).pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            hash.update(chunk);
            callback(null, chunk);
          },
        }),
      );
      const records = hashed.pipe(
        parse({
          bom: true,
          delimiter: options.delimiter ?? ',',
          relax_column_count: true,
          skip_empty_lines: true,
        }),
      );
      for await (const record of records as AsyncIterable<string[]>) {
        line++;
        const phone = parsePhone(record[0] ?? '');
        const day = dayOf(record[1] ?? '');
        if (line === 1 && !phone.ok && Number.isNaN(day)) continue;
        rowsRead++;
        if (!phone.ok) log.add(line, phone.message);
        else if (Number.isNaN(day))
          log.add(line, `${JSON.stringify(record[1] ?? '')} is not a date (YYYY-MM-DD)`);
        else if (day > asOfDay)
          log.add(line, `disconnected ${dateOfDay(day)}, after the file's as-of date ${options.asOf}`);
        else entries.push([phone.number, day]);
      }
    }
  } catch (error) {
    if (error instanceof StopReading) stoppedEarly = true;
    else if (error instanceof InputError) log.fail(1, error.message);
    else if (error instanceof CsvError) log.fail(line + 1, `malformed CSV (${error.code}): ${error.message}`);
    else throw error;
  }
  log.check(stoppedEarly);
  const sha256 = hash.digest('hex');
  const version = options.version ?? sha256.slice(0, 12);
  const earliest = entries.reduce((min, [, day]) => Math.min(min, day), asOfDay);
  const list = DisconnectList.build(entries, {
    version,
    asOf: dateOfDay(asOfDay),
    from: dateOfDay(fromDay ?? earliest),
  });
  return { list, report: log.report(version, { rowsRead, rowsUsed: entries.length }, sha256) };
}
