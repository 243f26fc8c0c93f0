import { createHash } from 'node:crypto';
import { DncListBuilder } from './builder.ts';
import {
  type DncImport,
  type DncImportOptions,
  type DncImportReport,
  ProblemLog,
  quoteRow,
} from './import-report.ts';
import { type DncInput, inputLabel } from './input.ts';
import type { DncList } from './list.ts';
import { readInput } from './read-input.ts';

/**
 * Where a change-list row keeps what. The FTC documents its change list only as comma-separated
 * records of several items, each a number added to or deleted from the registry since the last
 * download; operators report the number as area code and 7 digits, an `A` (added) or `D`
 * (deleted) flag, and a date. The defaults read `AAA,NNNNNNN,A[,anything after]`; check them
 * against a real file and set these where it differs.
 */
export interface FtcChangeListLayout {
  /** Field separator. Default `,`. */
  delimiter?: string;
  /** Column (0-based) of the 3-digit area code; null when the number column holds all 10 digits. Default 0. */
  areaCodeColumn?: number | null;
  /** Column (0-based) of the 7 digits after the area code, or of all 10 when `areaCodeColumn` is null. Default 1. */
  numberColumn?: number;
  /**
   * Column (0-based) of the add/delete flag. Default 2. Null for files that hold only additions
   * or only deletions: then `action` says which.
   */
  flagColumn?: number | null;
  /** Flag values meaning "added", compared trimmed and case-insensitively. Default `['A']`. */
  addFlags?: readonly string[];
  /** Flag values meaning "deleted". Default `['D']`. */
  deleteFlags?: readonly string[];
  /** What every row does when `flagColumn` is null. */
  action?: 'add' | 'delete';
  /** Skip the first line as a header. Default false (the FTC's flat files have none). */
  header?: boolean;
}

export interface FtcChangeListOptions extends DncImportOptions {
  layout?: FtcChangeListLayout;
}

export interface DncChangeReport extends DncImportReport {
  /** Numbers added that were not on the list. */
  added: number;
  /** Additions of numbers already on it. */
  alreadyPresent: number;
  /** Numbers deleted that were on the list. */
  deleted: number;
  /** Deletions of numbers that were not on it. */
  notPresent: number;
}

export const DEFAULT_CHANGE_LIST_LAYOUT = {
  delimiter: ',',
  areaCodeColumn: 0,
  numberColumn: 1,
  flagColumn: 2,
  addFlags: ['A'],
  deleteFlags: ['D'],
  header: false,
} as const satisfies FtcChangeListLayout;

const LF = 0x0a;
const MAX_CARRY = 4096;

type Layout = Required<Omit<FtcChangeListLayout, 'action'>> & { action: 'add' | 'delete' | null };

function resolveLayout(layout: FtcChangeListLayout = {}): Layout {
  const resolved: Layout = { ...DEFAULT_CHANGE_LIST_LAYOUT, ...layout, action: layout.action ?? null };
  const columns = [resolved.areaCodeColumn, resolved.numberColumn, resolved.flagColumn];
  for (const column of columns) {
    if (column !== null && !(Number.isInteger(column) && column >= 0)) {
      throw new RangeError(`Change-list columns are 0-based indexes, not ${column}`);
    }
  }
  if (resolved.flagColumn === null && resolved.action === null) {
    throw new RangeError('A change-list layout without a flag column needs `action`: add or delete');
  }
  if (resolved.delimiter === '') throw new RangeError('A change-list delimiter cannot be empty');
  return resolved;
}

/**
 * Applies an FTC change list (additions and deletions, in file order: a number added then deleted
 * ends deleted) to `base`, and returns the result as a new list: `base` is only read and keeps
 * answering as it did, so a failed or refused import changes nothing live. Exchanges the change
 * list does not touch are copied as they are.
 */
export async function applyFtcChangeList(
  base: DncList,
  input: DncInput,
  options: FtcChangeListOptions = {},
): Promise<DncImport<DncChangeReport>> {
  const layout = resolveLayout(options.layout);
  const label = options.source ?? inputLabel(input, 'FTC change list');
  const log = new ProblemLog(label, options);
  const reader = new ChangeListReader(new DncListBuilder(base.name, { base }), log, layout);
  const sha256 = await readInput(
    input,
    log,
    () => reader.line + 1,
    async (chunks) => {
      reader.line = 0;
      let carry: Buffer | null = null;
      for await (const chunk of chunks) {
        let pos = 0;
        for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, pos)) {
          const piece = chunk.subarray(pos, lf);
          if (carry === null) reader.row(piece);
          else {
            reader.row(Buffer.concat([carry, piece]));
            carry = null;
          }
          pos = lf + 1;
        }
        if (pos < chunk.length) {
          const piece = chunk.subarray(pos, pos + MAX_CARRY);
          carry = carry === null ? Buffer.from(piece) : Buffer.concat([carry, piece]).subarray(0, MAX_CARRY);
        }
      }
      if (carry !== null) reader.row(carry);
    },
  );
  const version =
    options.version ?? createHash('sha256').update(`${base.version}\n${sha256}`).digest('hex').slice(0, 12);
  return {
    list: reader.builder.build(version),
    report: {
      ...log.report(version, reader, sha256),
      added: reader.added,
      alreadyPresent: reader.alreadyPresent,
      deleted: reader.deleted,
      notPresent: reader.notPresent,
    },
  };
}

class ChangeListReader {
  readonly builder: DncListBuilder;
  readonly #log: ProblemLog;
  readonly #layout: Layout;
  readonly #addFlags: Set<string>;
  readonly #deleteFlags: Set<string>;
  readonly #fields: number;
  line = 0;
  rowsRead = 0;
  rowsUsed = 0;
  added = 0;
  alreadyPresent = 0;
  deleted = 0;
  notPresent = 0;

  constructor(builder: DncListBuilder, log: ProblemLog, layout: Layout) {
    this.builder = builder;
    this.#log = log;
    this.#layout = layout;
    this.#addFlags = new Set(layout.addFlags.map((flag) => flag.trim().toUpperCase()));
    this.#deleteFlags = new Set(layout.deleteFlags.map((flag) => flag.trim().toUpperCase()));
    this.#fields = 1 + Math.max(layout.numberColumn, layout.areaCodeColumn ?? 0, layout.flagColumn ?? 0);
  }

  row(bytes: Buffer): void {
    this.line++;
    let text = bytes.toString('latin1');
    if (this.line === 1 && text.startsWith('\u00ef\u00bb\u00bf')) text = text.slice(3);
    text = text.trim();
    if (text === '' || (this.line === 1 && this.#layout.header)) return;
    this.rowsRead++;
    const layout = this.#layout;
    const fields = text.split(layout.delimiter).map(unquote);
    if (fields.length < this.#fields) {
      this.#log.add(
        this.line,
        `expected at least ${this.#fields} fields separated by ${JSON.stringify(layout.delimiter)}, found ${fields.length} in ${quoteRow(text)}`,
      );
      return;
    }
    const number = this.#number(fields, text);
    if (number === null) return;

    let action = layout.action;
    if (layout.flagColumn !== null) {
      const flag = fields[layout.flagColumn]!.toUpperCase();
      action = this.#addFlags.has(flag) ? 'add' : this.#deleteFlags.has(flag) ? 'delete' : null;
      if (action === null) {
        const expected = [...this.#addFlags, ...this.#deleteFlags].map((value) => JSON.stringify(value));
        this.#log.add(
          this.line,
          `flag ${JSON.stringify(fields[layout.flagColumn])} in column ${layout.flagColumn} of ${quoteRow(text)} is none of ${expected.join(', ')}`,
        );
        return;
      }
    }
    this.rowsUsed++;
    if (action === 'add') {
      if (this.builder.add(number)) this.added++;
      else this.alreadyPresent++;
    } else if (this.builder.delete(number)) this.deleted++;
    else this.notPresent++;
  }

  #number(fields: string[], text: string): number | null {
    const layout = this.#layout;
    const digits =
      layout.areaCodeColumn === null
        ? fields[layout.numberColumn]!
        : `${fields[layout.areaCodeColumn]!}${fields[layout.numberColumn]!}`;
    const expected =
      layout.areaCodeColumn === null
        ? `10 digits in column ${layout.numberColumn}`
        : `a 3-digit area code in column ${layout.areaCodeColumn} and 7 digits in column ${layout.numberColumn}`;
    const wellFormed =
      layout.areaCodeColumn === null
        ? /^\d{10}$/.test(digits)
        : /^\d{3}$/.test(fields[layout.areaCodeColumn]!) && /^\d{7}$/.test(fields[layout.numberColumn]!);
    if (!wellFormed) {
      this.#log.add(this.line, `expected ${expected}, found ${quoteRow(text)}`);
      return null;
    }
    if (digits[0]! < '2' || digits[3]! < '2') {
      const part = digits[0]! < '2' ? `area code ${digits.slice(0, 3)}` : `exchange ${digits.slice(3, 6)}`;
      this.#log.add(
        this.line,
        `${part} in ${quoteRow(text)} does not exist: it must start with a digit from 2 to 9`,
      );
      return null;
    }
    return Number(digits);
  }
}

function unquote(field: string): string {
  const trimmed = field.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
}
