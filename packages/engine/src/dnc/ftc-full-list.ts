import { DncListBuilder } from './builder.ts';
import { type DncImport, type DncImportOptions, ProblemLog, quoteRow } from './import-report.ts';
import { type DncInput, inputLabel } from './input.ts';
import { readInput } from './read-input.ts';

export interface FtcFullListOptions extends DncImportOptions {
  /** The list's name. Default `federal`. */
  name?: string;
}

const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const ZERO = 0x30;
/** Longest partial line carried from one chunk to the next: a good row is 11 characters. */
const MAX_CARRY = 4096;
const ROW = /^(\d{3}),(\d{7})$/;

/**
 * Reads the FTC National Do Not Call Registry's full list download, flat text: one registered
 * number per line as `AAA,NNNNNNN` (area code, comma, the 7-digit rest), LF or CRLF. Plain, gzip,
 * or the zip the FTC serves (every file in it is read). Returns a new list; the live one is not
 * touched, and a refused import (see `mode`) throws ImportError with line numbers.
 *
 * Fast: rows are read from the bytes as they arrive, not through a CSV parser or one string per
 * line; only a row that does not look like `AAA,NNNNNNN` takes the slow path that explains it.
 */
export async function importFtcFullList(
  input: DncInput,
  options: FtcFullListOptions = {},
): Promise<DncImport> {
  const label = options.source ?? inputLabel(input, 'FTC full list');
  const log = new ProblemLog(label, options);
  const reader = new FullListReader(new DncListBuilder(options.name ?? 'federal'), log);
  const sha256 = await readInput(
    input,
    log,
    () => reader.line + 1,
    async (chunks) => {
      reader.startFile();
      for await (const chunk of chunks) reader.push(chunk);
      reader.endFile();
    },
  );
  const version = options.version ?? sha256.slice(0, 12);
  return {
    list: reader.builder.build(version),
    report: {
      ...log.report(version, reader, sha256),
    },
  };
}

class FullListReader {
  readonly builder: DncListBuilder;
  readonly #log: ProblemLog;
  /** Lines finished in the current file. */
  line = 0;
  rowsRead = 0;
  rowsUsed = 0;
  /** The start of a line the last chunk ended inside. */
  #carry: Buffer | null = null;

  constructor(builder: DncListBuilder, log: ProblemLog) {
    this.builder = builder;
    this.#log = log;
  }

  startFile(): void {
    this.line = 0;
    this.#carry = null;
  }

  endFile(): void {
    const carry = this.#carry;
    this.#carry = null;
    if (carry !== null) this.#slowLine(carry, 0, carry.length);
  }

  push(chunk: Buffer): void {
    const length = chunk.length;
    let pos = 0;
    if (this.#carry !== null) {
      const lf = chunk.indexOf(LF);
      this.#keep(chunk.subarray(0, lf === -1 ? length : lf));
      if (lf === -1) return;
      const carry = this.#carry!;
      this.#carry = null;
      this.#slowLine(carry, 0, carry.length);
      pos = lf + 1;
    }
    const builder = this.builder;
    while (pos < length) {
      // The fast path: exactly `AAA,NNNNNNN` and a line break, all in this chunk.
      if (pos + 12 <= length && chunk[pos + 3] === COMMA) {
        let end = pos + 11;
        if (chunk[end] === CR && end + 1 < length) end++;
        if (chunk[end] === LF) {
          const a = chunk[pos]! - ZERO;
          const b = chunk[pos + 1]! - ZERO;
          const c = chunk[pos + 2]! - ZERO;
          const d = chunk[pos + 4]! - ZERO;
          const e = chunk[pos + 5]! - ZERO;
          const f = chunk[pos + 6]! - ZERO;
          const g = chunk[pos + 7]! - ZERO;
          const h = chunk[pos + 8]! - ZERO;
          const i = chunk[pos + 9]! - ZERO;
          const j = chunk[pos + 10]! - ZERO;
          // Unsigned compares: a byte below '0' wraps to a large number. Area codes and exchanges
          // start with 2-9.
          if (
            (a - 2) >>> 0 <= 7 &&
            b >>> 0 <= 9 &&
            c >>> 0 <= 9 &&
            (d - 2) >>> 0 <= 7 &&
            e >>> 0 <= 9 &&
            f >>> 0 <= 9 &&
            g >>> 0 <= 9 &&
            h >>> 0 <= 9 &&
            i >>> 0 <= 9 &&
            j >>> 0 <= 9
          ) {
            builder.addLine(
              a * 100_000 + b * 10_000 + c * 1000 + d * 100 + e * 10 + f,
              g * 1000 + h * 100 + i * 10 + j,
            );
            this.line++;
            this.rowsRead++;
            this.rowsUsed++;
            pos = end + 1;
            continue;
          }
        }
      }
      const lf = chunk.indexOf(LF, pos);
      if (lf === -1) {
        this.#keep(chunk.subarray(pos));
        return;
      }
      this.#slowLine(chunk, pos, lf);
      pos = lf + 1;
    }
  }

  #keep(bytes: Buffer): void {
    const kept = this.#carry?.length ?? 0;
    const room = Math.max(0, MAX_CARRY - kept);
    const part = bytes.subarray(0, room);
    this.#carry = this.#carry === null ? Buffer.from(part) : Buffer.concat([this.#carry, part]);
  }

  /** Any line the fast path did not take: blank, odd spacing, a BOM, or bad. */
  #slowLine(bytes: Buffer, start: number, end: number): void {
    this.line++;
    let text = bytes.toString('latin1', start, end);
    // A UTF-8 byte-order mark, read as latin1.
    if (this.line === 1 && text.startsWith('\u00ef\u00bb\u00bf')) text = text.slice(3);
    text = text.trim();
    if (text === '') return;
    this.rowsRead++;
    const row = ROW.exec(text);
    if (!row) {
      const found =
        end - start >= MAX_CARRY ? `${quoteRow(text)} (a line this long is not a row)` : quoteRow(text);
      this.#log.add(
        this.line,
        `expected "AAA,NNNNNNN" (a 3-digit area code, a comma and the 7 digits after it), found ${found}`,
      );
      return;
    }
    const npa = Number(row[1]);
    const rest = Number(row[2]);
    if (npa < 200) {
      this.#log.add(
        this.line,
        `area code ${row[1]} in ${quoteRow(text)} does not exist: area codes start with a digit from 2 to 9`,
      );
      return;
    }
    if (rest < 2_000_000) {
      this.#log.add(
        this.line,
        `exchange ${row[2]!.slice(0, 3)} in ${quoteRow(text)} does not exist: exchanges start with a digit from 2 to 9`,
      );
      return;
    }
    this.builder.addLine(npa * 1000 + Math.floor(rest / 10_000), rest % 10_000);
    this.rowsUsed++;
  }
}
