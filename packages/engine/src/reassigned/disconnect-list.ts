import type { Versioned } from '../datasets.ts';
import { newBuffer } from '../dnc/list.ts';

const DAY_MS = 86_400_000;
/**
 * The filter in front of the search: 16 bits or more a number in the file, so that about one
 * number in 16 or fewer of those not in it gets past it and is searched for. At most 2^27 bits
 * (16 MB): a file past 8 M numbers gets fewer bits a number, and more searches.
 */
const FILTER_BITS_PER_NUMBER = 16;
const MIN_FILTER_LOG2 = 10;
const MAX_FILTER_LOG2 = 27;

/** A number's bit in a filter of 2^(32 - shift) bits: a hash of its exchange and its line. */
function filterBit(number: number, shift: number): number {
  const exchange = (number / 10_000) | 0;
  const line = number - exchange * 10_000;
  const mixed = Math.imul(exchange, 0x9e3779b1) ^ Math.imul(line, 0x85ebca6b);
  return Math.imul(mixed ^ (mixed >>> 15), 0x2c1b3c6d) >>> shift;
}

/**
 * A day as a whole number of days since 1970-01-01 (UTC), from `YYYY-MM-DD` or the US
 * spreadsheet form `M/D/YYYY`; NaN for anything else, or a day no calendar has (2025-02-30).
 */
export function dayOf(text: string): number {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  const us = iso ? null : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  const parts = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : null;
  if (parts === null) return Number.NaN;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return Number.NaN;
  }
  return time / DAY_MS;
}

/** A day number as `YYYY-MM-DD`. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** A list as posted to a worker thread: its buffer is shared, not copied. */
export interface SharedDisconnectList {
  version: string;
  /** The last day the file speaks for (`YYYY-MM-DD`): the operator's "as of" date. */
  asOf: string;
  /** The first day it speaks for (`YYYY-MM-DD`): disconnections before it are not in it. */
  from: string;
  size: number;
  /** `size` numbers (Float64, ascending), then each one's last disconnect day (Int32). */
  buffer: SharedArrayBuffer | ArrayBuffer;
}

/**
 * Permanent disconnections, as an operator imported them (`scrub-server data import disconnects`):
 * each number's last disconnect day, for the days from `from` to `asOf`. Sorted arrays, 12 bytes a
 * number, looked up by binary search; immutable, and shared with threads without a copy. In front
 * of the search, a filter of a bit or two a number (each instance its own, made at its first
 * lookup) answers most numbers not in the file at once: a bulk job asks about every row, and a
 * search's dozen or more unpredictable steps cost more than the rest of a row's added cells.
 *
 * It answers the FCC's Reassigned Numbers Database's question (was the number permanently
 * disconnected on or after the consent date?) as the database does: yes, no, or no data (null).
 */
export class DisconnectList implements Versioned {
  readonly version: string;
  readonly asOf: string;
  readonly from: string;
  readonly size: number;
  readonly buffer: SharedArrayBuffer | ArrayBuffer;
  readonly #numbers: Float64Array;
  readonly #days: Int32Array;
  readonly #asOfDay: number;
  readonly #fromDay: number;
  /** Bit `filterBit(number)` set for every number in the file; made at the first lookup. */
  #filter: Int32Array | null = null;
  #filterShift = 32;

  constructor(shared: SharedDisconnectList) {
    this.version = shared.version;
    this.asOf = shared.asOf;
    this.from = shared.from;
    this.size = shared.size;
    this.buffer = shared.buffer;
    this.#numbers = new Float64Array(shared.buffer, 0, shared.size);
    this.#days = new Int32Array(shared.buffer, shared.size * 8, shared.size);
    this.#asOfDay = dayOf(shared.asOf);
    this.#fromDay = dayOf(shared.from);
    if (Number.isNaN(this.#asOfDay) || Number.isNaN(this.#fromDay)) {
      throw new RangeError(`A disconnect list's dates are YYYY-MM-DD, not ${shared.from} and ${shared.asOf}`);
    }
  }

  /** From numbers and their disconnect days (a number given twice keeps its latest day). */
  static build(
    entries: Iterable<[number, number]>,
    about: { version: string; asOf: string; from: string },
  ): DisconnectList {
    const latest = new Map<number, number>();
    for (const [number, day] of entries) latest.set(number, Math.max(day, latest.get(number) ?? day));
    const numbers = [...latest.keys()].sort((a, b) => a - b);
    const buffer = newBuffer(numbers.length * 12);
    const list = new Float64Array(buffer, 0, numbers.length);
    const days = new Int32Array(buffer, numbers.length * 8, numbers.length);
    numbers.forEach((number, i) => {
      list[i] = number;
      days[i] = latest.get(number)!;
    });
    return new DisconnectList({ ...about, size: numbers.length, buffer });
  }

  toShared(): SharedDisconnectList {
    return { version: this.version, asOf: this.asOf, from: this.from, size: this.size, buffer: this.buffer };
  }

  /** The number's last disconnect day in the file, or -1 when the file has none. */
  disconnectedOn(number: number): number {
    const filter = this.#filter ?? this.#makeFilter();
    const bit = filterBit(number, this.#filterShift);
    if ((filter[bit >>> 5]! & (1 << (bit & 31))) === 0) return -1;
    const numbers = this.#numbers;
    let low = 0;
    let high = numbers.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const found = numbers[mid]!;
      if (found === number) return this.#days[mid]!;
      if (found < number) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  #makeFilter(): Int32Array {
    const wanted = Math.ceil(Math.log2(Math.max(1, this.size * FILTER_BITS_PER_NUMBER)));
    const log2 = Math.min(MAX_FILTER_LOG2, Math.max(MIN_FILTER_LOG2, wanted));
    const filter = new Int32Array(2 ** (log2 - 5));
    const shift = 32 - log2;
    for (const number of this.#numbers) {
      const bit = filterBit(number, shift);
      filter[bit >>> 5]! |= 1 << (bit & 31);
    }
    this.#filterShift = shift;
    this.#filter = filter;
    return filter;
  }

  /**
   * Whether the number (10 digits as an integer) was permanently disconnected on or after the
   * consent day: true when the file says so; false when the file speaks for every day from the
   * consent day to its as-of date and has no such disconnection; null (no data) when the consent
   * day is before the file's first day or after its as-of date: a file cannot say "no" about days
   * it does not cover.
   */
  reassignedSince(number: number, consentDay: number): boolean | null {
    if (Number.isNaN(consentDay) || consentDay > this.#asOfDay) return null;
    const disconnected = this.disconnectedOn(number);
    if (disconnected >= consentDay) return true;
    return consentDay >= this.#fromDay ? false : null;
  }
}
