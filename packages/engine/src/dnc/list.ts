import type { Versioned } from '../datasets.ts';
import {
  AREA_CODES,
  BASES,
  dataStart,
  EXCHANGES_PER_AREA_CODE,
  exchangeLines,
  FIRST_RECORD,
  isBitmap,
  LARGEST_NUMBER,
  LINES_PER_EXCHANGE,
  PADDING_UNITS,
  RECORD_HEAD,
  slotHas,
  slotIndex,
  slotUnits,
} from './encoding.ts';

/** How one exchange's numbers are stored: see the README's "Do-not-call lists". */
export type DncEncoding = 'sparse' | 'bitmap';

/** A list as posted to a worker thread: plain data around a SharedArrayBuffer, mapped, not copied. */
export interface SharedDncList {
  name: string;
  version: string;
  /** See `DncList.releasedOn`; absent means not known. */
  releasedOn?: string | null;
  size: number;
  exchanges: number;
  buffer: SharedArrayBuffer;
}

export interface DncListStats {
  /** Registered numbers. */
  size: number;
  /** Exchanges (NPA-NXX) with at least one number, and how they are stored. */
  exchanges: number;
  sparse: number;
  bitmap: number;
  /** The index: area-code tables and records, exchange slots. */
  indexBytes: number;
  /** Line numbers. */
  dataBytes: number;
  byteLength: number;
}

/** @internal What `DncListBuilder` hands to the constructor. */
export interface DncListParts {
  name: string;
  version: string;
  releasedOn?: string | null;
  size: number;
  exchanges: number;
  buffer: SharedArrayBuffer | ArrayBuffer;
}

/**
 * One named do-not-call list ('federal', 'state:TX', 'internal:<account>') at one version: a set
 * of 10-digit numbers in one buffer, never changed once built. A new import or change list builds
 * a new DncList (see `DncListBuilder`), so the live one answers unchanged until it is swapped out.
 */
export class DncList implements Versioned {
  readonly name: string;
  readonly version: string;
  /**
   * The date of the list itself (`YYYY-MM-DD`), as its publisher (the FTC, a state) released it:
   * not when it was imported. null when not known: an account's own list, or a list imported
   * before release dates were recorded. What a list's age, and so its staleness, counts from.
   */
  readonly releasedOn: string | null;
  /** Registered numbers. */
  readonly size: number;
  /** Exchanges (NPA-NXX) with at least one number. */
  readonly exchanges: number;
  readonly buffer: SharedArrayBuffer | ArrayBuffer;
  /** @internal Views of `buffer`, read by `DncSet`'s hot path. */
  readonly u32: Uint32Array;
  /** @internal */
  readonly u16: Uint16Array;

  /** @internal Lists come from `DncListBuilder`, an importer, `fromShared` or `empty`. */
  constructor(parts: DncListParts) {
    if (parts.name === '') throw new RangeError('A DNC list needs a name');
    this.name = parts.name;
    this.version = parts.version;
    this.releasedOn = parts.releasedOn ?? null;
    this.size = parts.size;
    this.exchanges = parts.exchanges;
    this.buffer = parts.buffer;
    this.u32 = new Uint32Array(parts.buffer, 0, parts.buffer.byteLength >> 2);
    this.u16 = new Uint16Array(parts.buffer, 0, parts.buffer.byteLength >> 1);
  }

  /** A list with no numbers. */
  static empty(name: string, version: string): DncList {
    const bytes = FIRST_RECORD * 4 + PADDING_UNITS * 2;
    return new DncList({ name, version, size: 0, exchanges: 0, buffer: newBuffer(Math.ceil(bytes / 8) * 8) });
  }

  /** Maps a list posted from another thread: same memory, no copy. */
  static fromShared(shared: SharedDncList): DncList {
    return new DncList(shared);
  }

  /**
   * Whether the 10-digit number (as an integer, 2015550123) is on the list. No allocation;
   * anything that is not an integer from 0 to 9999999999 is not on it.
   */
  has(number: number): boolean {
    if (!(number >= 0 && number <= LARGEST_NUMBER)) return false;
    const exchange = (number / LINES_PER_EXCHANGE) | 0;
    const line = number - exchange * LINES_PER_EXCHANGE;
    if ((line | 0) !== line) return false;
    const npa = (exchange / EXCHANGES_PER_AREA_CODE) | 0;
    const u32 = this.u32;
    const record = u32[npa]!;
    if (record === 0) return false;
    const index = slotIndex(u32, record, exchange - npa * EXCHANGES_PER_AREA_CODE);
    if (index === 0) return false;
    const slot = u32[index]!;
    return slotHas(slot, u32[BASES + npa]! + (slot >>> 11), line, this.u16);
  }

  /** Bytes the list holds in memory: its one buffer (the object around it is a few dozen bytes). */
  get byteLength(): number {
    return this.buffer.byteLength;
  }

  /**
   * The list as plain data to post to a worker thread. Built lists live in a SharedArrayBuffer
   * already, so this copies nothing; a list on a plain ArrayBuffer is copied once.
   */
  toShared(): SharedDncList {
    let buffer = this.buffer;
    if (!(buffer instanceof SharedArrayBuffer)) {
      const shared = new SharedArrayBuffer(buffer.byteLength);
      new Uint8Array(shared).set(new Uint8Array(buffer));
      buffer = shared;
    }
    return {
      name: this.name,
      version: this.version,
      releasedOn: this.releasedOn,
      size: this.size,
      exchanges: this.exchanges,
      buffer,
    };
  }

  /** How an exchange (NPA-NXX as a 6-digit integer, 212736) is stored; null when it has no numbers. */
  encodingOf(exchange: number): DncEncoding | null {
    if (!(Number.isInteger(exchange) && exchange >= 0 && exchange < AREA_CODES * EXCHANGES_PER_AREA_CODE)) {
      throw new RangeError(`Not an exchange (NPA-NXX as 6 digits): ${exchange}`);
    }
    const record = this.u32[Math.floor(exchange / EXCHANGES_PER_AREA_CODE)]!;
    const index = record === 0 ? 0 : slotIndex(this.u32, record, exchange % EXCHANGES_PER_AREA_CODE);
    if (index === 0) return null;
    return isBitmap(this.u32[index]!) ? 'bitmap' : 'sparse';
  }

  /** Every number, ascending. Allocates: for exports and checks, not for lookups. */
  *numbers(): Generator<number> {
    for (let npa = 0; npa < AREA_CODES; npa++) {
      const record = this.u32[npa]!;
      if (record === 0) continue;
      for (let nxx = 0; nxx < EXCHANGES_PER_AREA_CODE; nxx++) {
        const index = slotIndex(this.u32, record, nxx);
        if (index === 0) continue;
        const slot = this.u32[index]!;
        const first = (npa * EXCHANGES_PER_AREA_CODE + nxx) * LINES_PER_EXCHANGE;
        for (const line of exchangeLines(slot, dataStart(this.u32, npa, slot), this.u16)) yield first + line;
      }
    }
  }

  /** Where the bytes go: index and data, and how many exchanges use each encoding. */
  stats(): DncListStats {
    let areaCodes = 0;
    let bitmap = 0;
    let dataUnits = 0;
    for (let npa = 0; npa < AREA_CODES; npa++) {
      const record = this.u32[npa]!;
      if (record === 0) continue;
      areaCodes++;
      for (let nxx = 0; nxx < EXCHANGES_PER_AREA_CODE; nxx++) {
        const index = slotIndex(this.u32, record, nxx);
        if (index === 0) continue;
        const slot = this.u32[index]!;
        if (isBitmap(slot)) bitmap++;
        dataUnits += slotUnits(slot);
      }
    }
    return {
      size: this.size,
      exchanges: this.exchanges,
      sparse: this.exchanges - bitmap,
      bitmap,
      indexBytes: (FIRST_RECORD + areaCodes * RECORD_HEAD + this.exchanges) * 4,
      dataBytes: dataUnits * 2,
      byteLength: this.byteLength,
    };
  }
}

/**
 * Lists are built on SharedArrayBuffers, so posting one to a worker shares it; where there are none
 * (a browser page that is not cross-origin isolated), on plain ArrayBuffers.
 */
export function newBuffer(byteLength: number): SharedArrayBuffer | ArrayBuffer {
  return typeof SharedArrayBuffer === 'function'
    ? new SharedArrayBuffer(byteLength)
    : new ArrayBuffer(byteLength);
}
