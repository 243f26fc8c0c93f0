const AREA_CODES = 1000;
const LINES_PER_AREA_CODE = 10_000_000; // the other seven digits: below 2^24
const HASHES = 1 << 24;
/** An area code's table past this many bytes becomes a bitmap of its 10^7 lines, which is smaller. */
const BITMAP_BYTES = LINES_PER_AREA_CODE / 8;
const FIRST_SLOTS = 2048;
const GROWTH = 1.5;
const MAX_LOAD = 0.75;
const MAX_VALUE = 0xffff;

/**
 * The distinct 10-digit numbers of one file, for charging each once. A JavaScript Set of numbers
 * costs tens of bytes an entry and V8 caps it at 2^24 entries; this keeps, per area code, an
 * open-addressing hash table of the other seven digits in 16-bit slots (a Uint16Array), by
 * quotienting: part of each number is told by the slot it sits in, so the slot holds the rest.
 *
 * Layout. The seven digits (a key below 2^24) are mixed by a bijection of 24-bit numbers,
 * hash = key * odd mod 2^24. A table of m slots has the quotient q = ceil(2^24 / m); a hash's home
 * is slot floor(hash / q), and the slot it lands in, probing linearly from its home, holds
 * (displacement + 1) * q + (hash mod q), from which the hash, so the number, comes back; 0 marks a
 * free slot. A table starts at 2,048 slots (4 KiB) and grows by half (to the next smaller quotient)
 * when three quarters full, or when a number would land too far from its home for its value to fit
 * 16 bits (past a displacement of about 65,536 / q - 2: 6 in the first table, 90 from 23,000
 * slots, 200 from 52,000; in a random-looking file that only cuts small tables short).
 *
 * Memory: 2 bytes a slot, at a load of 1/2 to 3/4 once tables grow by load: 2.7 to 4 bytes a
 * number for an area code holding 5,000 numbers or more (about 6 at 1,000; 4 KiB at least). A lead
 * list of 9 M numbers over 300 area codes takes 32 MB, 3.5 bytes a number (the former 32-bit
 * slots took 79 MB). Bound: no area code's table exceeds 2^24 slots (32 MiB, one slot a hash,
 * where no two numbers collide), and growing one briefly holds the old table and the new.
 *
 * Two guards keep that bound small whatever the file holds. The multiplier is drawn at random for
 * each set (odd, so still a bijection), so no file can be written to make its numbers collide; and
 * an area code whose table would grow past 1.25 MB becomes a bitmap of its 10^7 lines (1.25 MB,
 * one bit a number, the smaller of the two past about 250,000 numbers). At most 1.25 MB an area
 * code, whatever the file.
 */
export class NumberSet {
  readonly #tables: (Uint16Array | undefined)[] = new Array(AREA_CODES);
  /** Area codes held as bitmaps of their lines instead (their table would have been larger). */
  readonly #bitmaps: (Uint8Array | undefined)[] = new Array(AREA_CODES);
  /** Odd, so that key * multiplier mod 2^24 is a bijection of 24-bit keys; random, see above. */
  readonly #multiplier: number;
  readonly #quotients = new Int32Array(AREA_CODES);
  readonly #sizes = new Int32Array(AREA_CODES);
  #size = 0;

  constructor(multiplier = randomOddMultiplier()) {
    this.#multiplier = multiplier | 1;
  }

  get size(): number {
    return this.#size;
  }

  get byteLength(): number {
    let bytes = this.#quotients.byteLength + this.#sizes.byteLength;
    for (const table of this.#tables) bytes += table?.byteLength ?? 0;
    for (const bitmap of this.#bitmaps) bytes += bitmap?.byteLength ?? 0;
    return bytes;
  }

  /** Adds a 10-digit number (an integer below 10^10); true when it was not there yet. */
  add(number: number): boolean {
    const areaCode = (number / LINES_PER_AREA_CODE) | 0;
    const key = number - areaCode * LINES_PER_AREA_CODE;
    const bitmap = this.#bitmaps[areaCode];
    if (bitmap !== undefined) {
      const bit = 1 << (key & 7);
      if ((bitmap[key >>> 3]! & bit) !== 0) return false;
      bitmap[key >>> 3]! |= bit;
      this.#size++;
      return true;
    }
    const hash = Math.imul(key, this.#multiplier) & (HASHES - 1);
    let table = this.#tables[areaCode];
    if (table === undefined) {
      table = new Uint16Array(FIRST_SLOTS);
      this.#tables[areaCode] = table;
      this.#quotients[areaCode] = HASHES / FIRST_SLOTS;
    }
    const outcome = insert(table, this.#quotients[areaCode]!, hash);
    if (outcome === HELD) return false;
    this.#size++;
    const size = ++this.#sizes[areaCode]!;
    if (outcome === TOO_FAR) this.#grow(areaCode, hash);
    else if (size > table.length * MAX_LOAD) this.#grow(areaCode, -1);
    return true;
  }

  /** Moves an area code's hashes to a larger table, with `pending` (a hash not yet in; or -1). */
  #grow(areaCode: number, pending: number): void {
    const old = this.#tables[areaCode]!;
    const oldQuotient = this.#quotients[areaCode]!;
    let quotient = oldQuotient;
    for (;;) {
      quotient = Math.max(1, Math.floor(quotient / GROWTH));
      if (Math.ceil(HASHES / quotient) * 2 > BITMAP_BYTES) {
        this.#toBitmap(areaCode, pending);
        return;
      }
      const table = new Uint16Array(Math.ceil(HASHES / quotient));
      if (pending >= 0 && insert(table, quotient, pending) === TOO_FAR) continue;
      if (!rehash(old, oldQuotient, table, quotient)) continue;
      this.#tables[areaCode] = table;
      this.#quotients[areaCode] = quotient;
      return;
    }
  }

  /** Moves an area code's numbers, and `pending` (or -1), to a bitmap of its lines. */
  #toBitmap(areaCode: number, pending: number): void {
    const bitmap = new Uint8Array(BITMAP_BYTES);
    const inverse = inverseMod24(this.#multiplier);
    const mark = (hash: number) => {
      const key = Math.imul(hash, inverse) & (HASHES - 1);
      bitmap[key >>> 3]! |= 1 << (key & 7);
    };
    const table = this.#tables[areaCode]!;
    const quotient = this.#quotients[areaCode]!;
    for (let slot = 0; slot < table.length; slot++) {
      const value = table[slot]!;
      if (value !== 0) mark(hashAt(table, quotient, slot, value));
    }
    if (pending >= 0) mark(pending);
    this.#bitmaps[areaCode] = bitmap;
    this.#tables[areaCode] = undefined;
  }
}

/** A random odd multiplier with its top bit set, so that nearby keys land far apart. */
function randomOddMultiplier(): number {
  return (Math.floor(Math.random() * (HASHES >>> 1)) | (HASHES >>> 1) | 1) >>> 0;
}

/** The inverse of an odd number modulo 2^24 (Newton's iteration: each step doubles the bits). */
function inverseMod24(odd: number): number {
  let inverse = odd;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(odd, inverse));
  return inverse & (HASHES - 1);
}

/** The hash held in `slot` as `value`: its home is `value / quotient - 1` slots back. */
function hashAt(table: Uint16Array, quotient: number, slot: number, value: number): number {
  const steps = (value / quotient) | 0; // displacement + 1
  let home = slot - steps + 1;
  if (home < 0) home += table.length;
  return home * quotient + value - steps * quotient;
}

const ADDED = 0;
const HELD = 1;
const TOO_FAR = 2;

/** Inserts a hash by linear probing from its home: ADDED, HELD, or TOO_FAR to be written. */
function insert(table: Uint16Array, quotient: number, hash: number): number {
  const home = (hash / quotient) | 0;
  let value = quotient + hash - home * quotient; // displacement 0
  let slot = home;
  for (;;) {
    const held = table[slot]!;
    if (held === 0) break;
    if (held === value) return HELD;
    value += quotient;
    if (++slot === table.length) slot = 0;
  }
  // No slot can hold a value past MAX_VALUE, so the hash is not in the table.
  if (value > MAX_VALUE) return TOO_FAR;
  table[slot] = value;
  return ADDED;
}

/** Inserts every hash of `from` in `to`; false when one lands too far from its home. */
function rehash(from: Uint16Array, fromQuotient: number, to: Uint16Array, quotient: number): boolean {
  for (let slot = 0; slot < from.length; slot++) {
    const value = from[slot]!;
    if (value === 0) continue;
    if (insert(to, quotient, hashAt(from, fromQuotient, slot, value)) === TOO_FAR) return false;
  }
  return true;
}
