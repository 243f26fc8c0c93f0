import { ClassCode, type ExchangeAnswer, type ExchangeData } from '../classify.ts';
import type { DataSource } from '../datasets.ts';
import { TableLevel } from './table-level.ts';

/** One slot per NPA-NXX: the number divided by 10,000. */
export const EXCHANGE_SLOTS = 1_000_000;
/** One slot per NPA-NXX-X thousands block: the number divided by 1,000. */
export const BLOCK_SLOTS = 10_000_000;
const LINES_PER_EXCHANGE = 10_000;
const AREA_CODES = 1000;

// An exchange byte holds its answer in the low five bits (EXCHANGE_NOT_IN_SERVICE, 26, is the
// largest) and two flags saying where to look further, so that the common case, an exchange with
// neither blocks nor ported numbers, is one byte read and one comparison.
const ANSWER_BITS = 5;
const ANSWER_MASK = 0x1f;
// In a block byte, and in an exchange byte while building: "this slot was given an answer", so
// that an answer of UNKNOWN_GEOGRAPHIC (0) differs from no answer.
const PRESENT = 0x20;
const HAS_BLOCKS = 0x40;
const HAS_NUMBERS = 0x80;

const ANSWERS: ReadonlySet<number> = new Set([
  ClassCode.UNKNOWN_GEOGRAPHIC,
  ClassCode.MOBILE,
  ClassCode.LANDLINE,
  ClassCode.VOIP,
  ClassCode.EXCHANGE_NOT_IN_SERVICE,
]);

const FORMAT = 'scrub-exchange-table-1';

export interface ExchangeTableStats {
  /** Exchanges with an answer: set by the data, or not in service in an area code it covers. */
  exchanges: number;
  mobile: number;
  landline: number;
  voip: number;
  /** In service, line type unknown (a carrier the OCN list does not know). */
  unknown: number;
  notInService: number;
  /** Thousands blocks that override their exchange. */
  blocks: number;
  /** Numbers that override their block and exchange. */
  numbers: number;
}

/** Bytes each table takes; all of it in SharedArrayBuffers, shared between threads, never copied. */
export interface ExchangeTableMemory {
  exchanges: number;
  blocks: number;
  numbers: number;
  total: number;
}

/**
 * An ExchangeTable as plain data, to post to a worker thread (`worker.postMessage(shared)`): the
 * buffers are SharedArrayBuffers, so the worker reads the same memory, nothing is copied.
 */
export interface SharedExchangeTable {
  readonly format: typeof FORMAT;
  readonly version: string;
  readonly source: DataSource;
  readonly stats: ExchangeTableStats;
  readonly exchanges: SharedArrayBuffer;
  readonly blocks: SharedArrayBuffer | null;
  readonly numberStart: SharedArrayBuffer | null;
  readonly numberLines: SharedArrayBuffer | null;
  readonly numberAnswers: SharedArrayBuffer | null;
}

const emptyBytes = () => new Uint8Array(new SharedArrayBuffer(0));

/**
 * Line types by exchange (NPA-NXX), thousands block (NPA-NXX-X) and number, in typed arrays
 * indexed by number: a number answers from its number override, else its block, else its
 * exchange. Immutable once built; build one with ExchangeTableBuilder or `sampleExchangeTable`.
 *
 * Memory: 1 MB for exchanges; 10 MB for blocks, only when there are blocks; for number overrides,
 * only when there are some, 4 MB of per-exchange offsets plus 3 bytes per number (its last four
 * digits in 16 bits, its answer in 8).
 */
export class ExchangeTable implements ExchangeData {
  readonly version: string;
  readonly source: DataSource;
  readonly stats: ExchangeTableStats;
  readonly #exchanges: Uint8Array<SharedArrayBuffer>;
  readonly #blocks: Uint8Array<SharedArrayBuffer>;
  /** Per exchange, where its overridden numbers start in numberLines; one more slot for the end. */
  readonly #numberStart: Uint32Array<SharedArrayBuffer>;
  /** Line numbers (the last four digits) of overridden numbers, ascending within each exchange. */
  /** Line numbers (the last four digits) of overridden numbers, ascending within each exchange. */
  readonly #numberLines: Uint16Array<SharedArrayBuffer>;
  // Apart from the lines: a lookup reads an answer only for a number that is overridden, rare
  // among the numbers looked up, so packing both into one array would save little and cost a byte.
  readonly #numberAnswers: Uint8Array<SharedArrayBuffer>;

  /** Use ExchangeTableBuilder, `sampleExchangeTable` or `ExchangeTable.fromShared`. */
  constructor(shared: SharedExchangeTable) {
    if (shared.format !== FORMAT) {
      throw new TypeError(`not a shared exchange table (format ${shared.format})`);
    }
    const exchanges = new Uint8Array(shared.exchanges);
    const blocks = shared.blocks ? new Uint8Array(shared.blocks) : emptyBytes();
    const numberStart = new Uint32Array(shared.numberStart ?? new SharedArrayBuffer(0));
    const numberLines = new Uint16Array(shared.numberLines ?? new SharedArrayBuffer(0));
    const numberAnswers = new Uint8Array(shared.numberAnswers ?? new SharedArrayBuffer(0));
    const numbers = numberLines.length;
    if (
      exchanges.length !== EXCHANGE_SLOTS ||
      (blocks.length !== 0 && blocks.length !== BLOCK_SLOTS) ||
      (numbers > 0 && numberStart.length !== EXCHANGE_SLOTS + 1) ||
      numberAnswers.length !== numbers ||
      (numbers > 0 && numberStart[EXCHANGE_SLOTS] !== numbers)
    ) {
      throw new RangeError('shared exchange table buffers have the wrong sizes');
    }
    this.version = shared.version;
    this.source = shared.source;
    this.stats = shared.stats;
    this.#exchanges = exchanges;
    this.#blocks = blocks;
    this.#numberStart = numberStart;
    this.#numberLines = numberLines;
    this.#numberAnswers = numberAnswers;
  }

  /** Wraps buffers another thread posted: the same memory, not a copy. */
  static fromShared(shared: SharedExchangeTable): ExchangeTable {
    return new ExchangeTable(shared);
  }

  /** The table as plain data over its SharedArrayBuffers, to post to worker threads. */
  toShared(): SharedExchangeTable {
    const orNull = (array: { length: number; buffer: SharedArrayBuffer }) =>
      array.length === 0 ? null : array.buffer;
    return {
      format: FORMAT,
      version: this.version,
      source: this.source,
      stats: this.stats,
      exchanges: this.#exchanges.buffer,
      blocks: orNull(this.#blocks),
      numberStart: orNull(this.#numberStart),
      numberLines: orNull(this.#numberLines),
      numberAnswers: orNull(this.#numberAnswers),
    };
  }

  /**
   * The answer for a valid 10-digit geographic number given as an integer: `classifyCode` calls it
   * on the hot path. One byte read for most numbers; no allocation.
   */
  lineTypeCode(number: number): ExchangeAnswer {
    const exchange = (number / LINES_PER_EXCHANGE) | 0;
    const byte = this.#exchanges[exchange]!;
    if (byte < HAS_BLOCKS) return byte as ExchangeAnswer;
    return this.#refine(number, exchange, byte);
  }

  // Apart from lineTypeCode so that the common path stays small enough to inline.
  #refine(number: number, exchange: number, byte: number): ExchangeAnswer {
    if ((byte & HAS_NUMBERS) !== 0) {
      const at = this.#overrideAt(number, exchange);
      if (at >= 0) return this.#numberAnswers[at]! as ExchangeAnswer;
    }
    if ((byte & HAS_BLOCKS) !== 0) {
      const block = this.#blocks[(number / 1000) | 0]!;
      if (block !== 0) return (block & ANSWER_MASK) as ExchangeAnswer;
    }
    return (byte & ANSWER_MASK) as ExchangeAnswer;
  }

  /** Where the number's override is in numberLines (a binary search in its exchange's), or -1. */
  #overrideAt(number: number, exchange: number): number {
    const line = number - exchange * LINES_PER_EXCHANGE;
    const lines = this.#numberLines;
    let low = this.#numberStart[exchange]!;
    let high = this.#numberStart[exchange + 1]! - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = lines[middle]!;
      if (found < line) low = middle + 1;
      else if (found > line) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  /**
   * Which level `lineTypeCode(number)` answered from: the number's override, its block, or its
   * exchange: the same reads as `#refine`, apart from it so that the hot path is unchanged.
   */
  lineTypeLevel(number: number): TableLevel {
    const exchange = (number / LINES_PER_EXCHANGE) | 0;
    const byte = this.#exchanges[exchange]!;
    if ((byte & HAS_NUMBERS) !== 0 && this.#overrideAt(number, exchange) >= 0)
      return TableLevel.NUMBER_OVERRIDE;
    if ((byte & HAS_BLOCKS) !== 0 && this.#blocks[(number / 1000) | 0] !== 0)
      return TableLevel.THOUSANDS_BLOCK;
    return TableLevel.EXCHANGE;
  }

  memory(): ExchangeTableMemory {
    const exchanges = this.#exchanges.byteLength;
    const blocks = this.#blocks.byteLength;
    const numbers =
      this.#numberStart.byteLength + this.#numberLines.byteLength + this.#numberAnswers.byteLength;
    return { exchanges, blocks, numbers, total: exchanges + blocks + numbers };
  }
}

export interface ExchangeTableBuilderOptions {
  /** `sample` for generated data; defaults to `imported`. */
  source?: DataSource;
}

function checkAnswer(answer: number): void {
  if (!ANSWERS.has(answer)) {
    throw new RangeError(
      `${answer} is not an exchange answer (UNKNOWN_GEOGRAPHIC, MOBILE, LANDLINE, VOIP or EXCHANGE_NOT_IN_SERVICE)`,
    );
  }
}

function checkSlot(what: string, value: number, slots: number): void {
  if (!(Number.isInteger(value) && value >= 0 && value < slots)) {
    throw new RangeError(`${what} must be an integer from 0 to ${slots - 1}, not ${value}`);
  }
}

/**
 * Collects answers by exchange, block and number in any order, then builds an ExchangeTable.
 * A later answer for the same exchange, block or number replaces the earlier one. The tables are
 * allocated on SharedArrayBuffers from the start, and `build` hands them over without copying:
 * a builder builds once.
 */
export class ExchangeTableBuilder {
  readonly source: DataSource;
  #exchanges: Uint8Array<SharedArrayBuffer> | null = new Uint8Array(new SharedArrayBuffer(EXCHANGE_SLOTS));
  readonly #coveredAreas = new Uint8Array(AREA_CODES);
  #blocks: Uint8Array<SharedArrayBuffer> | null = null;
  #blockCount = 0;
  #numbers = new Float64Array(1024);
  #numberAnswers = new Uint8Array(1024);
  #numberCount = 0;

  constructor(options: ExchangeTableBuilderOptions = {}) {
    this.source = options.source ?? 'imported';
  }

  #live(): Uint8Array<SharedArrayBuffer> {
    if (this.#exchanges === null) throw new Error('this ExchangeTableBuilder has already built its table');
    return this.#exchanges;
  }

  /**
   * Says the data is the authority on which exchanges of this area code are assigned (the CO code
   * file lists every assigned exchange): its exchanges that get no answer answer
   * EXCHANGE_NOT_IN_SERVICE rather than UNKNOWN_GEOGRAPHIC.
   */
  coverArea(npa: number): void {
    this.#live();
    checkSlot('an area code', npa, AREA_CODES);
    this.#coveredAreas[npa] = 1;
  }

  /** The answer for an exchange, by NPA-NXX as a number: 201234 for 201-234. */
  setExchange(exchange: number, answer: ExchangeAnswer): void {
    const exchanges = this.#live();
    checkSlot('an NPA-NXX', exchange, EXCHANGE_SLOTS);
    checkAnswer(answer);
    exchanges[exchange] = (exchanges[exchange]! & HAS_BLOCKS) | PRESENT | answer;
  }

  /** The answer for a thousands block, overriding its exchange: 2012345 for 201-234-5XXX. */
  setBlock(block: number, answer: ExchangeAnswer): void {
    const exchanges = this.#live();
    checkSlot('an NPA-NXX-X', block, BLOCK_SLOTS);
    checkAnswer(answer);
    // Allocated only once a block is set: most data has none, and this is the largest table.
    this.#blocks ??= new Uint8Array(new SharedArrayBuffer(BLOCK_SLOTS));
    if (this.#blocks[block] === 0) this.#blockCount++;
    this.#blocks[block] = PRESENT | answer;
    exchanges[(block / 10) | 0]! |= HAS_BLOCKS;
  }

  /** The answer for one number (a ported number), overriding its block and exchange. */
  setNumber(number: number, answer: ExchangeAnswer): void {
    this.#live();
    checkSlot('a 10-digit number', number, EXCHANGE_SLOTS * LINES_PER_EXCHANGE);
    checkAnswer(answer);
    if (this.#numberCount === this.#numbers.length) {
      const numbers = new Float64Array(this.#numbers.length * 2);
      numbers.set(this.#numbers);
      this.#numbers = numbers;
      const answers = new Uint8Array(this.#numberAnswers.length * 2);
      answers.set(this.#numberAnswers);
      this.#numberAnswers = answers;
    }
    this.#numbers[this.#numberCount] = number;
    this.#numberAnswers[this.#numberCount] = answer;
    this.#numberCount++;
  }

  /** Builds the table; `version` names it in answers and /health. */
  build(version: string): ExchangeTable {
    const exchanges = this.#live();
    this.#exchanges = null;
    const numbers = this.#buildNumbers();
    const numberStart = numbers?.start ?? null;
    const blocks = this.#blocks;
    this.#blocks = null;

    // Answers by exchange: the last answer set, else not in service where the area is covered.
    const covered = this.#coveredAreas;
    const counts = new Uint32Array(ANSWER_MASK + 1);
    let answered = 0;
    for (let exchange = 0; exchange < EXCHANGE_SLOTS; exchange++) {
      const byte = exchanges[exchange]!;
      let answer: number = ClassCode.UNKNOWN_GEOGRAPHIC;
      if ((byte & PRESENT) !== 0) answer = byte & ANSWER_MASK;
      else if (covered[(exchange / 1000) | 0] === 1) answer = ClassCode.EXCHANGE_NOT_IN_SERVICE;
      else if (byte === 0 && numberStart === null) continue;
      if ((byte & PRESENT) !== 0 || answer !== ClassCode.UNKNOWN_GEOGRAPHIC) {
        answered++;
        counts[answer]!++;
      }
      let flags = byte & HAS_BLOCKS;
      if (numberStart !== null && numberStart[exchange + 1]! > numberStart[exchange]!) flags |= HAS_NUMBERS;
      exchanges[exchange] = answer | flags;
    }
    const stats: ExchangeTableStats = {
      exchanges: answered,
      mobile: counts[ClassCode.MOBILE]!,
      landline: counts[ClassCode.LANDLINE]!,
      voip: counts[ClassCode.VOIP]!,
      unknown: counts[ClassCode.UNKNOWN_GEOGRAPHIC]!,
      notInService: counts[ClassCode.EXCHANGE_NOT_IN_SERVICE]!,
      blocks: this.#blockCount,
      numbers: numbers?.lines.length ?? 0,
    };

    return new ExchangeTable({
      format: FORMAT,
      version,
      source: this.source,
      stats,
      exchanges: exchanges.buffer,
      blocks: blocks?.buffer ?? null,
      numberStart: numberStart?.buffer ?? null,
      numberLines: numbers?.lines.buffer ?? null,
      numberAnswers: numbers?.answers.buffer ?? null,
    });
  }

  /**
   * Groups the numbers by exchange with a counting sort (stable, so a later answer for a number
   * stays after an earlier one), keeps the last answer per number and sorts each exchange's
   * lines. Linear in the numbers, with no object per number: ported-number files run to millions.
   */
  #buildNumbers() {
    const count = this.#numberCount;
    if (count === 0) return null;
    const numbers = this.#numbers;
    const start = new Uint32Array(new SharedArrayBuffer((EXCHANGE_SLOTS + 1) * 4));
    for (let i = 0; i < count; i++) start[((numbers[i]! / LINES_PER_EXCHANGE) | 0) + 1]!++;
    for (let exchange = 1; exchange <= EXCHANGE_SLOTS; exchange++) start[exchange]! += start[exchange - 1]!;

    const cursor = start.slice(0, EXCHANGE_SLOTS);
    const lines = new Uint16Array(count);
    const answers = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const exchange = (numbers[i]! / LINES_PER_EXCHANGE) | 0;
      const at = cursor[exchange]!++;
      lines[at] = numbers[i]! - exchange * LINES_PER_EXCHANGE;
      answers[at] = this.#numberAnswers[i]!;
    }
    this.#numbers = new Float64Array(0);
    this.#numberAnswers = new Uint8Array(0);

    // Compacts in place: `kept` never passes the entry being read.
    const lastAt = new Int32Array(LINES_PER_EXCHANGE).fill(-1);
    const packed = new Uint32Array(LINES_PER_EXCHANGE);
    let kept = 0;
    let from = 0;
    for (let exchange = 0; exchange < EXCHANGE_SLOTS; exchange++) {
      const to = start[exchange + 1]!;
      start[exchange] = kept;
      if (from === to) continue;
      for (let at = from; at < to; at++) lastAt[lines[at]!] = at;
      let size = 0;
      for (let at = from; at < to; at++) {
        const line = lines[at]!;
        if (lastAt[line] !== at) continue;
        lastAt[line] = -1;
        // The line above the answer's bits: one native numeric sort orders both together.
        packed[size++] = (line << ANSWER_BITS) | answers[at]!;
      }
      for (const entry of packed.subarray(0, size).sort()) {
        lines[kept] = entry >>> ANSWER_BITS;
        answers[kept] = entry & ANSWER_MASK;
        kept++;
      }
      from = to;
    }
    start[EXCHANGE_SLOTS] = kept;

    const sharedLines = new Uint16Array(new SharedArrayBuffer(kept * 2));
    sharedLines.set(lines.subarray(0, kept));
    const sharedAnswers = new Uint8Array(new SharedArrayBuffer(kept));
    sharedAnswers.set(answers.subarray(0, kept));
    return { start, lines: sharedLines, answers: sharedAnswers };
  }
}
