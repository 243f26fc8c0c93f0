import {
  AREA_CODES,
  BASES,
  BUILD_WORDS,
  dataStart,
  decodeExchange,
  EXCHANGES_PER_AREA_CODE,
  encodeExchange,
  FIRST_RECORD,
  LARGEST_NUMBER,
  LINES_PER_EXCHANGE,
  PADDING_UNITS,
  RECORD_HEAD,
  slotFor,
  slotIndex,
  slotUnits,
  unitsFor,
} from './encoding.ts';
import { DncList, newBuffer } from './list.ts';

const EXCHANGE_COUNT = AREA_CODES * EXCHANGES_PER_AREA_CODE;
// Bitmaps are handed out from chunks of this many, so building the whole registry makes under a
// thousand objects, not one per exchange.
const CHUNK_SHIFT = 8;
const CHUNK_BITMAPS = 1 << CHUNK_SHIFT;

export interface DncListBuilderOptions {
  /**
   * The list to start from: its numbers are in the new list unless deleted. It is only read;
   * exchanges no change touches are copied as they are.
   */
  base?: DncList;
}

/**
 * Collects numbers in any order, then builds an immutable DncList. While building, every exchange
 * touched gets a 1,252-byte bitmap (so adding is a bit set and duplicates cost nothing): memory is
 * bounded by the number of exchanges, not of numbers; `build` then stores each exchange in its
 * smallest encoding. Building from a `base` list copies the exchanges left untouched, so a change
 * list costs in proportion to what it changes.
 */
export class DncListBuilder {
  readonly name: string;
  readonly #base: DncList | null;
  /** Per exchange: 1 + its bitmap's number, or 0 when untouched. */
  readonly #bitmapOf = new Int32Array(EXCHANGE_COUNT);
  readonly #counts = new Uint16Array(EXCHANGE_COUNT);
  readonly #chunks: Uint32Array[] = [];
  /** Per area code: 1 once one of its exchanges is touched, so `build` skips the others. */
  readonly #areaCodesTouched = new Uint8Array(AREA_CODES);
  #bitmaps = 0;
  /** Numbers the base held in the exchanges touched, now counted in #counts instead. */
  #baseCountTouched = 0;

  constructor(name: string, options: DncListBuilderOptions = {}) {
    if (name === '') throw new RangeError('A DNC list needs a name');
    this.name = name;
    this.#base = options.base ?? null;
  }

  /** Adds a 10-digit number (as an integer); true when it was not there yet. */
  add(number: number): boolean {
    const exchange = exchangeOf(number);
    return this.addLine(exchange, number - exchange * LINES_PER_EXCHANGE);
  }

  /** Removes a 10-digit number; true when it was there. */
  delete(number: number): boolean {
    const exchange = exchangeOf(number);
    return this.deleteLine(exchange, number - exchange * LINES_PER_EXCHANGE);
  }

  /** `add` for importers that read the exchange (NPA-NXX, 6 digits) and line (4 digits) apart. */
  addLine(exchange: number, line: number): boolean {
    let bitmap = this.#bitmapOf[exchange]!;
    if (bitmap === 0) bitmap = this.#touch(exchange);
    bitmap--;
    const chunk = this.#chunks[bitmap >> CHUNK_SHIFT]!;
    const word = (bitmap & (CHUNK_BITMAPS - 1)) * BUILD_WORDS + (line >> 5);
    const bit = 1 << (line & 31);
    const old = chunk[word]!;
    if ((old & bit) !== 0) return false;
    chunk[word] = old | bit;
    this.#counts[exchange]!++;
    return true;
  }

  deleteLine(exchange: number, line: number): boolean {
    let bitmap = this.#bitmapOf[exchange]!;
    if (bitmap === 0) {
      if (this.#baseSlot(exchange) === 0) return false;
      bitmap = this.#touch(exchange);
    }
    bitmap--;
    const chunk = this.#chunks[bitmap >> CHUNK_SHIFT]!;
    const word = (bitmap & (CHUNK_BITMAPS - 1)) * BUILD_WORDS + (line >> 5);
    const bit = 1 << (line & 31);
    const old = chunk[word]!;
    if ((old & bit) === 0) return false;
    chunk[word] = old & ~bit;
    this.#counts[exchange]!--;
    return true;
  }

  /** Whether a number is in the list being built. */
  has(number: number): boolean {
    const exchange = exchangeOf(number);
    const line = number - exchange * LINES_PER_EXCHANGE;
    const bitmap = this.#bitmapOf[exchange]!;
    if (bitmap === 0) return this.#base?.has(number) ?? false;
    const chunk = this.#chunks[(bitmap - 1) >> CHUNK_SHIFT]!;
    return (
      (chunk[((bitmap - 1) & (CHUNK_BITMAPS - 1)) * BUILD_WORDS + (line >> 5)]! & (1 << (line & 31))) !== 0
    );
  }

  /** Bytes the builder holds now (its tables and bitmaps), for memory accounting during imports. */
  get byteLength(): number {
    return (
      this.#bitmapOf.byteLength +
      this.#counts.byteLength +
      this.#chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
    );
  }

  /**
   * The list, as a new object on a new buffer (shared, when the platform has SharedArrayBuffer).
   * The builder can go on and build again: each build is a snapshot.
   */
  /** `releasedOn`: the list's release date (`YYYY-MM-DD`), when its publisher dated it: see `DncList.releasedOn`. */
  build(version: string, releasedOn: string | null = null): DncList {
    const base = this.#base;
    let records = 0;
    let units = 0;
    let exchanges = 0;
    let size = base === null ? 0 : base.size - this.#baseCountTouched;
    for (let npa = 0; npa < AREA_CODES; npa++) {
      if (!this.#mayHave(npa)) continue;
      let used = 0;
      for (let exchange = npa * 1000, end = exchange + 1000; exchange < end; exchange++) {
        const exchangeUnits = this.#unitsOf(exchange);
        if (exchangeUnits === 0) continue;
        used++;
        units += exchangeUnits;
        if (this.#bitmapOf[exchange] !== 0) size += this.#counts[exchange]!;
      }
      if (used > 0) records += RECORD_HEAD + used;
      exchanges += used;
    }

    const firstUnit = (FIRST_RECORD + records) * 2;
    // Rounded up to 8 bytes, so views of every width fit the buffer.
    const buffer = newBuffer(Math.ceil(((firstUnit + units + PADDING_UNITS) * 2) / 8) * 8);
    const u32 = new Uint32Array(buffer);
    const u16 = new Uint16Array(buffer);
    let record = FIRST_RECORD;
    let p = firstUnit;
    for (let npa = 0; npa < AREA_CODES; npa++) {
      if (!this.#mayHave(npa)) continue;
      let rank = 0;
      for (let nxx = 0; nxx < EXCHANGES_PER_AREA_CODE; nxx++) {
        const exchange = npa * EXCHANGES_PER_AREA_CODE + nxx;
        const count = this.#write(exchange, u16, p);
        if (count === 0) continue;
        if (rank === 0) {
          u32[npa] = record;
          u32[BASES + npa] = p;
        }
        u32[record + 2 * (nxx >> 5)]! |= 1 << (nxx & 31);
        u32[record + RECORD_HEAD + rank++] = slotFor(p - u32[BASES + npa]!, count);
        p += unitsFor(count);
      }
      if (rank === 0) continue;
      // Each pair's second word: how many exchanges of the area code come before its 32.
      let before = 0;
      for (let pair = 0; pair < RECORD_HEAD; pair += 2) {
        u32[record + pair + 1] = before;
        before += popcount(u32[record + pair]!);
      }
      record += RECORD_HEAD + rank;
    }
    return new DncList({ name: this.name, version, releasedOn, size, exchanges, buffer });
  }

  #mayHave(npa: number): boolean {
    return this.#areaCodesTouched[npa] === 1 || (this.#base !== null && this.#base.u32[npa] !== 0);
  }

  #touch(exchange: number): number {
    this.#areaCodesTouched[(exchange / EXCHANGES_PER_AREA_CODE) | 0] = 1;
    const id = this.#bitmaps++;
    if (id >> CHUNK_SHIFT === this.#chunks.length) {
      this.#chunks.push(new Uint32Array(CHUNK_BITMAPS * BUILD_WORDS));
    }
    this.#bitmapOf[exchange] = id + 1;
    const slot = this.#baseSlot(exchange);
    if (slot !== 0) {
      const base = this.#base!;
      const chunk = this.#chunks[id >> CHUNK_SHIFT]!;
      const npa = (exchange / EXCHANGES_PER_AREA_CODE) | 0;
      const count = decodeExchange(
        slot,
        dataStart(base.u32, npa, slot),
        base.u16,
        chunk,
        (id & (CHUNK_BITMAPS - 1)) * BUILD_WORDS,
      );
      this.#counts[exchange] = count;
      this.#baseCountTouched += count;
    }
    return id + 1;
  }

  #baseSlot(exchange: number): number {
    const base = this.#base;
    if (base === null) return 0;
    const record = base.u32[(exchange / EXCHANGES_PER_AREA_CODE) | 0]!;
    const index = record === 0 ? 0 : slotIndex(base.u32, record, exchange % EXCHANGES_PER_AREA_CODE);
    return index === 0 ? 0 : base.u32[index]!;
  }

  /** u16 units the exchange will take in the built list; 0 when it has no numbers. */
  #unitsOf(exchange: number): number {
    if (this.#bitmapOf[exchange] !== 0) {
      const count = this.#counts[exchange]!;
      return count === 0 ? 0 : unitsFor(count);
    }
    const slot = this.#baseSlot(exchange);
    return slot === 0 ? 0 : slotUnits(slot);
  }

  /**
   * Writes the exchange at u16 offset p; returns its count of lines (a bitmap's count only as
   * "more than SPARSE_MAX"), 0 when it has no numbers.
   */
  #write(exchange: number, u16: Uint16Array, p: number): number {
    const bitmap = this.#bitmapOf[exchange]! - 1;
    if (bitmap >= 0) {
      const count = this.#counts[exchange]!;
      if (count === 0) return 0;
      const chunk = this.#chunks[bitmap >> CHUNK_SHIFT]!;
      encodeExchange(chunk, (bitmap & (CHUNK_BITMAPS - 1)) * BUILD_WORDS, count, u16, p);
      return count;
    }
    const slot = this.#baseSlot(exchange);
    if (slot === 0) return 0;
    const base = this.#base!;
    const from = dataStart(base.u32, (exchange / EXCHANGES_PER_AREA_CODE) | 0, slot);
    const units = slotUnits(slot);
    u16.set(base.u16.subarray(from, from + units), p);
    return slot & 2047;
  }
}

function popcount(word: number): number {
  let count = 0;
  for (let bits = word; bits !== 0; bits &= bits - 1) count++;
  return count;
}

function exchangeOf(number: number): number {
  if (!(Number.isInteger(number) && number >= 0 && number <= LARGEST_NUMBER)) {
    throw new RangeError(`Not a 10-digit phone number: ${number}`);
  }
  return Math.floor(number / LINES_PER_EXCHANGE);
}
