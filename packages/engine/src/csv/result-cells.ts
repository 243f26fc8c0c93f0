import { CallingClock, callingWindowOf } from '../calling-window.ts';
import { SOURCE_NAMES } from '../line-type-source.ts';
import {
  DNC_COLUMN,
  LINE_TYPE_COLUMN,
  listColumnName,
  OPTIONAL_COLUMNS,
  type OptionalColumn,
} from './scrub-options.ts';

// Line types by output index: a valid ClassCode is its own index; every invalid one is INVALID.
export const LINE_TYPES = [
  'unknown_geographic',
  'mobile',
  'landline',
  'voip',
  'toll_free',
  'invalid',
] as const;
export const INVALID = 5;
// DNC cells by DncState: clean, listed, an invalid number on no list (nothing to call), unchecked.
const DNC_CELLS = ['0', '1', '', 'unchecked'] as const;

interface OptionalCells {
  key: string;
  /** For an invalid number. */
  invalid: Buffer;
  /** By area code (index npa). */
  byAreaCode: Buffer[];
}

let lastCells: OptionalCells | null = null;

/**
 * The optional columns' cells for each area code, as of `evaluatedAt`. The last answer is kept: a
 * file scrubbed in parts (`scrubCsvPart`) asks the same for every part, and each answer reads the
 * time zones of 800 area codes.
 */
function optionalCells(sep: string, columns: readonly OptionalColumn[], evaluatedAt: number): OptionalCells {
  const key = `${sep}|${columns.join(',')}|${evaluatedAt}`;
  if (lastCells?.key === key) return lastCells;
  const clock = new CallingClock(new Date(evaluatedAt));
  const cells = (zones: readonly string[], callable: boolean | null) =>
    Buffer.from(
      columns
        .filter((column) => column !== 'line_type_source')
        .map((column) =>
          column === 'timezone'
            ? `${sep}${zones.join(' ')}`
            : `${sep}${callable === null ? '' : callable ? 1 : 0}`,
        )
        .join(''),
    );
  const invalid = cells([], null);
  const byAreaCode = Array.from({ length: 1000 }, (_, npa) => {
    if (npa < 200) return invalid;
    const window = callingWindowOf(`+1${npa}2000000`, 'unknown_geographic', clock);
    return cells(window.timeZones, window.callableNow);
  });
  lastCells = { key, invalid, byAreaCode };
  return lastCells;
}

/**
 * The cells that may end a row (after the operator lists'), one per combination of answers: for
 * columns given first to last, combination `((a0 * n1) + a1) * n2 + a2...` where `ai` is column
 * i's answer (an index into its cells) and `ni` how many cells it has. No columns: one empty tail.
 */
export function tailCells(columns: readonly (readonly Buffer[])[]): Buffer[] {
  return columns.reduce<Buffer[]>(
    (tails, cells) => tails.flatMap((tail) => cells.map((cell) => Buffer.concat([tail, cell]))),
    [Buffer.alloc(0)],
  );
}

/**
 * The cells a result row gets after its own, as bytes ready to copy: Line Type and DNC, then the
 * optional columns asked for (in `OPTIONAL_COLUMNS` order), the operator lists', and last a tail
 * (`tailCells`: Reassigned, Ported), each with the separator in front. A row's cells are joined
 * once per distinct combination and looked up once: a row costs one lookup and one copy.
 */
export class ResultCells {
  /** The header's added names. */
  readonly header: Buffer;
  /** The most bytes any row's cells (or the header's) take. */
  readonly longest: number;
  /** Per line type and DNC state, Line Type and DNC. */
  readonly #suffixes: Buffer[];
  /** With optional columns: their cells per area code (index npa), and for an invalid number. */
  readonly #extras: Buffer[] | null = null;
  readonly #invalidExtra: Buffer = Buffer.alloc(0);
  /** With the Line Type Source column: its cell by SourceCode. */
  readonly #sources: Buffer[] | null = null;
  readonly #sep: string;
  /** How many operator lists' columns come after the others. */
  readonly #lists: number;
  /** The cells that may come last (`tailCells`); the longest is in `longest`. */
  readonly #tails: readonly Buffer[];
  /**
   * Suffix, optional, source, list and tail cells joined, by
   * (((suffix index * 1000 + area code) * sources + source) * 2^lists + listed) * tails + tail.
   */
  readonly #joined = new Map<number, Buffer>();
  /** Whether rows need their SourceCode (the Line Type Source column is asked for). */
  readonly needsSource: boolean;

  /**
   * `evaluatedAt` is read only when optional cells are written (`writes`) and asked for. `lists`:
   * the operator lists' names (`list:<name>`), one column each after the others. `tails`: the
   * cells that may come last (`tailCells`); their names are not in `header`, nor their bytes in
   * `longest`.
   */
  constructor(
    sep: string,
    asked: readonly OptionalColumn[] | undefined,
    evaluatedAt: () => number,
    writes: boolean,
    lists: readonly string[] = [],
    tails: readonly Buffer[] = tailCells([]),
  ) {
    this.#sep = sep;
    this.#lists = lists.length;
    this.#tails = tails;
    // Indexed by line type index * DNC_CELLS.length + DncState.
    this.#suffixes = LINE_TYPES.flatMap((lineType) =>
      DNC_CELLS.map((cell) => Buffer.from(`${sep}${lineType}${sep}${cell}`)),
    );
    const columns = Object.keys(OPTIONAL_COLUMNS).filter((column) =>
      asked?.includes(column as OptionalColumn),
    ) as OptionalColumn[];
    const headerNames = [
      LINE_TYPE_COLUMN,
      DNC_COLUMN,
      ...columns.map((column) => OPTIONAL_COLUMNS[column]),
      ...lists.map(listColumnName),
    ];
    this.header = Buffer.from(headerNames.map((name) => `${sep}${name}`).join(''));
    let longestExtra = 0;
    const byAreaCode = columns.filter((column) => column !== 'line_type_source');
    if (byAreaCode.length > 0 && writes) {
      const cells = optionalCells(sep, byAreaCode, evaluatedAt());
      this.#invalidExtra = cells.invalid;
      this.#extras = cells.byAreaCode;
      longestExtra = Math.max(...this.#extras.map((extra) => extra.length));
    }
    this.needsSource = writes && columns.includes('line_type_source');
    if (this.needsSource) {
      this.#sources = SOURCE_NAMES.map((name) => Buffer.from(`${sep}${name ?? ''}`));
      longestExtra += Math.max(...this.#sources.map((cell) => cell.length));
    }
    this.longest =
      Math.max(...this.#suffixes.map((suffix) => suffix.length), this.header.length) +
      longestExtra +
      lists.length * (Buffer.byteLength(sep) + 1);
  }

  /**
   * A row's cells: by its line type index (`LINE_TYPES`), its DncState, its number, with the Line
   * Type Source column its SourceCode, the operator lists holding it (bit i: list i), and its tail
   * (an index into `tails`).
   */
  of(kind: number, state: number, number: number, source: number, listed = 0, tail = 0): Buffer {
    const index = kind * DNC_CELLS.length + state;
    const suffix = this.#suffixes[index]!;
    const extras = this.#extras;
    const sources = this.#sources;
    const tails = this.#tails;
    if (extras === null && sources === null && this.#lists === 0 && tails.length === 1) return suffix;
    const npa = kind === INVALID || extras === null ? 0 : Math.floor(number / 10_000_000);
    const key =
      (((index * 1000 + npa) * SOURCE_NAMES.length + (sources === null ? 0 : source)) * 2 ** this.#lists +
        listed) *
        tails.length +
      tail;
    let joined = this.#joined.get(key);
    if (joined === undefined) {
      const extra = extras === null || npa === 0 ? this.#invalidExtra : extras[npa]!;
      const sourceCell = sources === null ? Buffer.alloc(0) : sources[source]!;
      const listCells = this.#listCells(kind === INVALID, listed);
      joined = Buffer.concat([suffix, extra, sourceCell, listCells, tails[tail]!]);
      this.#joined.set(key, joined);
    }
    return joined;
  }

  /** The operator lists' cells: 1 on the list, 0 a valid number not on it, empty an invalid one. */
  #listCells(invalid: boolean, listed: number): Buffer {
    let cells = '';
    for (let i = 0; i < this.#lists; i++) {
      cells += `${this.#sep}${(listed >>> i) & 1 ? '1' : invalid ? '' : '0'}`;
    }
    return Buffer.from(cells);
  }
}
