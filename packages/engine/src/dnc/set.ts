import type { Versioned } from '../datasets.ts';
import { areaCodeOf, coverageByAreaCode } from './coverage.ts';
import {
  BASES,
  EXCHANGES_PER_AREA_CODE,
  firstUnit,
  LARGEST_NUMBER,
  LINES_PER_EXCHANGE,
  slotHas,
  slotIndex,
} from './encoding.ts';
import { DncList, type SharedDncList } from './list.ts';

/** Lists one mask can name: one bit each. */
export const MAX_DNC_LISTS = 32;

/** Numbers `maskMany` looks up together: enough reads in flight, few enough to stay in cache. */
const BATCH = 256;
/** Marks a number that is not a 10-digit integer in a batch. */
const NOT_A_NUMBER = 0xffff;

/** A set as posted to a worker thread; every list's buffer is shared, not copied. */
export interface SharedDncSet {
  lists: SharedDncList[];
  /** See `DncSet.stale`; absent means none. */
  stale?: string[];
}

export interface DncSetOptions {
  /** See `DncSet.stale`. Names the set does not hold are ignored. */
  stale?: readonly string[];
}

/**
 * The lists one check consults (the federal registry, state lists, an account's internal list),
 * at most 32, each one bit of `mask`. Immutable: `with` and `without` make new sets, so a bulk job
 * that took a set answers from the same versions to its end.
 */
export class DncSet implements Versioned {
  readonly lists: readonly DncList[];
  /** Each list's name and version, for answers and /health: `federal@2025-06-01,state:TX@...`. */
  readonly version: string;
  /**
   * Lists too old to rely on (past the operator's maximum age): one still flags the numbers it holds,
   * but its silence covers no number, so a number only it covers answers "unchecked", never clean.
   */
  readonly stale: readonly string[];
  /** Bit i set when `lists[i]` is stale. */
  readonly #staleMask: number;
  readonly #u32: Uint32Array[];
  readonly #u16: Uint16Array[];
  /** Per area code, the lists that cover its numbers: see `coverageByAreaCode`. */
  readonly #coverage: Uint32Array;
  // maskMany's scratch space, made on first use. One set is used by one thread at a time.
  #scratch: Scratch | null = null;
  /** Where maskMany leaves what its prefetch reads summed, so the compiler keeps the reads. */
  #sink = 0;

  constructor(lists: readonly DncList[] = [], options: DncSetOptions = {}) {
    if (lists.length > MAX_DNC_LISTS) {
      throw new RangeError(`A DncSet holds at most ${MAX_DNC_LISTS} lists, not ${lists.length}`);
    }
    const names = new Set<string>();
    for (const list of lists) {
      if (names.has(list.name)) throw new RangeError(`Two lists named "${list.name}" in one DncSet`);
      names.add(list.name);
    }
    this.lists = Object.freeze([...lists]);
    this.version = lists.map((list) => `${list.name}@${list.version}`).join(',');
    this.#u32 = lists.map((list) => list.u32);
    this.#u16 = lists.map((list) => list.u16);
    this.#coverage = coverageByAreaCode(lists.map((list) => list.name));
    const stale = new Set(options.stale ?? []);
    this.stale = Object.freeze(lists.filter((list) => stale.has(list.name)).map((list) => list.name));
    this.#staleMask = lists.reduce((mask, list, i) => (stale.has(list.name) ? mask | (1 << i) : mask), 0);
  }

  static fromShared(shared: SharedDncSet): DncSet {
    return new DncSet(
      shared.lists.map((list) => DncList.fromShared(list)),
      { stale: shared.stale ?? [] },
    );
  }

  toShared(): SharedDncSet {
    return { lists: this.lists.map((list) => list.toShared()), stale: [...this.stale] };
  }

  /** The same lists with `names` (and only them) stale; this set itself when that changes nothing. */
  withStale(names: readonly string[]): DncSet {
    const next = this.lists.filter((list) => names.includes(list.name)).map((list) => list.name);
    if (next.length === this.stale.length && next.every((name, i) => name === this.stale[i])) return this;
    return new DncSet(this.lists, { stale: next });
  }

  /**
   * Bit i set when `lists[i]` holds the number (a 10-digit integer); 0 when none does, or when
   * the argument is not a 10-digit integer. The hot path: no allocation.
   */
  mask(number: number): number {
    if (!(number >= 0 && number <= LARGEST_NUMBER)) return 0;
    const exchange = (number / LINES_PER_EXCHANGE) | 0;
    const line = number - exchange * LINES_PER_EXCHANGE;
    if ((line | 0) !== line) return 0;
    const npa = (exchange / EXCHANGES_PER_AREA_CODE) | 0;
    const nxx = exchange - npa * EXCHANGES_PER_AREA_CODE;
    const u32s = this.#u32;
    let mask = 0;
    for (let i = 0; i < u32s.length; i++) {
      const u32 = u32s[i]!;
      const record = u32[npa]!;
      if (record === 0) continue;
      const index = slotIndex(u32, record, nxx);
      if (index === 0) continue;
      const slot = u32[index]!;
      if (slotHas(slot, u32[BASES + npa]! + (slot >>> 11), line, this.#u16[i]!)) mask |= 1 << i;
    }
    return mask >>> 0;
  }

  /**
   * `mask` for many numbers: `masks[i] = mask(numbers[i])` for i from `start` to `end`. The same
   * answers, several times faster over a list larger than the CPU's cache: a lookup costs one
   * read from main memory, and one by one each waits for its read, while a batch issues the reads
   * of 256 numbers together (in a loop small enough for the CPU to keep them all in flight) and
   * then answers from the cache. Bulk jobs use this; a single check uses `mask`. No allocation
   * after the first call.
   */
  maskMany(numbers: ArrayLike<number>, masks: Uint32Array, start = 0, end = numbers.length): void {
    if (masks.length < end) throw new RangeError(`masks holds ${masks.length} answers, not ${end}`);
    if (this.#scratch === null) this.#scratch = newScratch(this.lists.length);
    const scratch = this.#scratch;
    for (let from = start; from < end; from += BATCH) {
      this.#batch(numbers, masks, from, Math.min(end, from + BATCH), scratch);
    }
  }

  #batch(numbers: ArrayLike<number>, masks: Uint32Array, from: number, to: number, scratch: Scratch): void {
    const { npas, nxxs, lines, found, candidates, indexes, slots, starts, reads } = scratch;
    const count = to - from;
    for (let j = 0; j < count; j++) {
      const number = numbers[from + j]!;
      masks[from + j] = 0;
      const exchange = (number / LINES_PER_EXCHANGE) | 0;
      const line = number - exchange * LINES_PER_EXCHANGE;
      if (!(number >= 0 && number <= LARGEST_NUMBER) || (line | 0) !== line) {
        lines[j] = NOT_A_NUMBER;
        continue;
      }
      const npa = (exchange / EXCHANGES_PER_AREA_CODE) | 0;
      npas[j] = npa;
      nxxs[j] = exchange - npa * EXCHANGES_PER_AREA_CODE;
      lines[j] = line;
    }
    // Step by step for every list, each step in its own loop: the reads that may miss the cache
    // (exchange slots, then data) sit in loops small enough for the CPU to have all of them in
    // flight at once, for every list, before the next step needs them.
    const lists = this.#u32.length;
    for (let i = 0; i < lists; i++) {
      // The numbers whose exchange the list has: most, for the federal list; few, for a state's.
      const u32 = this.#u32[i]!;
      const at = i * BATCH;
      let n = 0;
      for (let j = 0; j < count; j++) {
        const record = lines[j] === NOT_A_NUMBER ? 0 : u32[npas[j]!]!;
        if (record === 0) continue;
        const index = slotIndex(u32, record, nxxs[j]!);
        if (index === 0) continue;
        candidates[at + n] = j;
        indexes[at + n++] = index;
      }
      found[i] = n;
    }
    for (let i = 0; i < lists; i++) {
      const u32 = this.#u32[i]!;
      for (let c = i * BATCH, end = c + found[i]!; c < end; c++) {
        const slot = u32[indexes[c]!]!;
        slots[c] = slot;
        const j = candidates[c]!;
        const p = u32[BASES + npas[j]!]! + (slot >>> 11);
        starts[c] = p;
        reads[c] = firstUnit(slot, p, lines[j]!);
      }
    }
    let sink = 0;
    for (let i = 0; i < lists; i++) {
      const u16 = this.#u16[i]!;
      for (let c = i * BATCH, end = c + found[i]!; c < end; c++) sink += u16[reads[c]!]!;
    }
    this.#sink ^= sink;
    for (let i = 0; i < lists; i++) {
      const u16 = this.#u16[i]!;
      const bit = 1 << i;
      for (let c = i * BATCH, end = c + found[i]!; c < end; c++) {
        const j = candidates[c]!;
        if (slotHas(slots[c]!, starts[c]!, lines[j]!, u16)) masks[from + j]! |= bit;
      }
    }
  }

  /** Whether any list holds the number. */
  has(number: number): boolean {
    return this.mask(number) !== 0;
  }

  /** Names of the lists holding the number, in the set's order: what a DNC answer reports. */
  sources(number: number): string[] {
    return this.namesOf(this.mask(number));
  }

  /**
   * Bit i set when `lists[i]` covers the number: it would hold the number if it were registered
   * there (federal and internal lists cover every number, a state's list its own area codes). A
   * number no list covers and none holds was not checked: its answer is "unchecked", never clean.
   * 0 for anything that is not a 10-digit integer. No allocation.
   */
  covering(number: number): number {
    const npa = areaCodeOf(number);
    return npa < 0 ? 0 : (this.#coverage[npa]! & ~this.#staleMask) >>> 0;
  }

  /** `covering`, stale lists included: the lists whose age matters to the number's answer. */
  coveringAtAnyAge(number: number): number {
    const npa = areaCodeOf(number);
    return npa < 0 ? 0 : this.#coverage[npa]!;
  }

  /** Names of the lists a mask from `mask` names. */
  namesOf(mask: number): string[] {
    const names: string[] = [];
    for (let i = 0; i < this.lists.length; i++) if ((mask >>> i) & 1) names.push(this.lists[i]!.name);
    return names;
  }

  /** The list with that name, if the set has one. */
  list(name: string): DncList | undefined {
    return this.lists.find((list) => list.name === name);
  }

  /** Each list's version by name. */
  versions(): Record<string, string> {
    return Object.fromEntries(this.lists.map((list) => [list.name, list.version]));
  }

  /** A set with `list` in place of the list of the same name (keeping its bit), or added last. */
  with(list: DncList): DncSet {
    const index = this.lists.findIndex((existing) => existing.name === list.name);
    // The lists kept stay stale; the one given replaces its namesake's age too.
    const stale = { stale: this.stale.filter((name) => name !== list.name) };
    if (index === -1) return new DncSet([...this.lists, list], stale);
    return new DncSet(
      this.lists.map((existing, i) => (i === index ? list : existing)),
      stale,
    );
  }

  /** A set without the named list; later lists move down one bit. */
  without(name: string): DncSet {
    return new DncSet(
      this.lists.filter((list) => list.name !== name),
      { stale: this.stale },
    );
  }

  /** Bytes the lists hold. */
  get byteLength(): number {
    return this.lists.reduce((sum, list) => sum + list.byteLength, 0);
  }
}

/** maskMany's working space: per number of a batch, then per list and number. */
interface Scratch {
  npas: Uint16Array;
  nxxs: Uint16Array;
  lines: Uint16Array;
  found: Uint16Array;
  candidates: Uint16Array;
  indexes: Uint32Array;
  slots: Uint32Array;
  starts: Uint32Array;
  reads: Uint32Array;
}

function newScratch(lists: number): Scratch {
  const entries = lists * BATCH;
  return {
    npas: new Uint16Array(BATCH),
    nxxs: new Uint16Array(BATCH),
    lines: new Uint16Array(BATCH),
    found: new Uint16Array(lists),
    candidates: new Uint16Array(entries),
    indexes: new Uint32Array(entries),
    slots: new Uint32Array(entries),
    starts: new Uint32Array(entries),
    reads: new Uint32Array(entries),
  };
}
