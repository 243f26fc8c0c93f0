import { ImportError, type ImportProblem } from '../import-error.ts';
import type { DncList } from './list.ts';

/**
 * `strict`: any bad row refuses the whole import. `partial`: bad rows are skipped and reported,
 * unless there are more than `maxProblems` of them (then the file is more likely the wrong file,
 * or the wrong layout, than a good file with a few bad rows, and the import is refused).
 */
export type DncImportMode = 'strict' | 'partial';

export interface DncImportOptions {
  /** Default `strict`. */
  mode?: DncImportMode;
  /** In `partial` mode, how many bad rows to accept before refusing the file. Default 1,000. */
  maxProblems?: number;
  /** The new list's version, such as the FTC file's date. Default: the first 12 hex digits of `sha256`. */
  version?: string;
  /** Names the input in messages. Default: the file's name, or the kind of file for bytes or a stream. */
  source?: string;
}

export interface DncImportProblem extends ImportProblem {
  /** The file inside a zip archive holding several; absent otherwise. */
  file?: string;
}

export interface DncImportReport {
  /** The input's name, as messages give it. */
  source: string;
  mode: DncImportMode;
  /** The new list's version. */
  version: string;
  /** Rows read: non-empty lines, or CSV records after the header. */
  rowsRead: number;
  /** Rows applied to the list (a number already on it counts: the row was good). */
  rowsUsed: number;
  /** Bad rows with their lines, the first 1,000. */
  problems: DncImportProblem[];
  /** Bad rows in all, listed or not. */
  problemCount: number;
  /** sha256 of the text read (inside the zip or gzip, when compressed), hex. */
  sha256: string;
}

export interface DncImport<Report extends DncImportReport = DncImportReport> {
  /** A new list: nothing that was live before the import has changed. */
  list: DncList;
  report: Report;
}

export const LISTED_PROBLEMS = 1000;
const DEFAULT_MAX_PROBLEMS = 1000;
const SHOWN_CHARACTERS = 60;

/** Why reading stopped early: enough problems to refuse the file already. */
export class StopReading extends Error {}

/** Collects bad rows, and says when an import must stop and be refused. */
export class ProblemLog {
  readonly source: string;
  readonly mode: DncImportMode;
  readonly maxProblems: number;
  readonly problems: DncImportProblem[] = [];
  count = 0;
  /** The file inside a zip the next problems are in, when the zip has several. */
  file: string | undefined;

  constructor(source: string, options: DncImportOptions) {
    this.source = source;
    this.mode = options.mode ?? 'strict';
    if (this.mode !== 'strict' && this.mode !== 'partial') {
      throw new RangeError(`Import mode is 'strict' or 'partial', not ${JSON.stringify(this.mode)}`);
    }
    this.maxProblems = this.mode === 'strict' ? 0 : (options.maxProblems ?? DEFAULT_MAX_PROBLEMS);
  }

  /** Records a bad row; throws StopReading once the import is bound to be refused. */
  add(line: number, message: string): void {
    this.count++;
    if (this.problems.length < LISTED_PROBLEMS) {
      this.problems.push(this.file === undefined ? { line, message } : { line, message, file: this.file });
    }
    // Strict imports read on to list what else is wrong, up to the listing's length.
    const limit = this.mode === 'strict' ? LISTED_PROBLEMS : this.maxProblems;
    if (this.count > limit) throw new StopReading();
  }

  /** Throws the ImportError that refuses the import, if it must be refused. */
  check(stoppedEarly: boolean): void {
    if (this.count === 0 || (this.mode === 'partial' && this.count <= this.maxProblems)) return;
    const listed: ImportProblem[] = this.problems.map(({ line, message, file }) => ({
      line,
      message: file === undefined ? message : `${file}: ${message}`,
    }));
    const last = this.problems.at(-1)?.line ?? 0;
    if (this.count > this.problems.length) {
      listed.push({ line: last, message: `${this.count - this.problems.length} more bad rows not listed` });
    }
    if (this.mode === 'partial') {
      listed.push({
        line: last,
        message: `more than ${this.maxProblems} bad rows${stoppedEarly ? ' (stopped reading here)' : ''}: the wrong file, or the wrong layout? Nothing was imported`,
      });
    } else if (stoppedEarly) {
      listed.push({ line: last, message: 'stopped reading here: nothing was imported' });
    }
    throw new ImportError(this.source, listed);
  }

  /** Refuses the import for a problem with the input as a whole (a damaged zip, a missing column). */
  /** The report of a finished import: what was read, what went wrong, and the new version. */
  report(version: string, rows: { rowsRead: number; rowsUsed: number }, sha256: string): DncImportReport {
    return {
      source: this.source,
      mode: this.mode,
      version,
      rowsRead: rows.rowsRead,
      rowsUsed: rows.rowsUsed,
      problems: this.problems,
      problemCount: this.count,
      sha256,
    };
  }

  fail(line: number, message: string): never {
    throw new ImportError(this.source, [
      ...this.problems.map(({ line, message }) => ({ line, message })),
      { line, message },
    ]);
  }
}

/** A row as messages quote it: JSON-quoted, cut to a readable length. */
export function quoteRow(text: string): string {
  return JSON.stringify(text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS - 3)}...` : text);
}
