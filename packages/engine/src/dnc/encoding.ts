/**
 * How one DNC list lies in one buffer: an index by area code, then by exchange, then each
 * exchange's line numbers (the last four digits) as a bitmap or as a packed sorted list. One
 * buffer, so a SharedArrayBuffer maps into worker threads without a copy; typed arrays only, so a
 * lookup is a few array reads and never allocates.
 *
 *   u32[0, 1000)       per area code (NPA): where its record starts, in u32 units; 0 = no numbers
 *   u32[1000, 2000)    per area code: where its exchanges' data starts, in u16 units
 *   records            per area code with numbers: 32 pairs (which of 32 exchanges have numbers,
 *                      as bits; how many earlier exchanges do), then one slot per exchange that
 *                      has numbers, in NXX order. A slot's place is its rank among those bits.
 *   u16 after them     the exchanges' lines, then 2 units of padding
 *
 * So the index takes 256 bytes per area code and 4 per exchange with numbers: under 1 MB for the
 * whole registry, which keeps it in the CPU's cache, and a few KB for an account's own list.
 *
 * A slot is `offset * 2048 + count`: the exchange's data offset from its area code's start (21
 * bits, u16 units) and how many lines it holds (11 bits), 2047 standing for a bitmap. With the
 * count in the slot, the index alone says where the line looked for should be, so a lookup reads
 * one place in the data (one cache miss, on a list far larger than the cache), not a directory
 * first and the data after it.
 *
 * Kinds, for an exchange with k registered lines:
 *   SPARSE  k <= 713:  the lines sorted, 14 bits each, packed: ceil(7k / 8) u16 units. A lookup
 *                      starts where the line would be if lines were evenly spread (k * line /
 *                      10,000) and steps to it: a few steps, in the same cache line.
 *   BITMAP  k >= 714:  10,000 bits, 1,250 bytes: where 14 bits per line stop being smaller.
 * So no exchange takes more than 2 bytes per line, nor more than 1.75 bytes per line plus 2, nor
 * more than 1,250 bytes.
 */

export const AREA_CODES = 1000;
export const EXCHANGES_PER_AREA_CODE = 1000;
export const LINES_PER_EXCHANGE = 10_000;
/** Largest 10-digit number. */
export const LARGEST_NUMBER = 9_999_999_999;

/** u32 index of the area codes' data starts. */
export const BASES = AREA_CODES;
/** u32 index of the first area-code record. */
export const FIRST_RECORD = 2 * AREA_CODES;
/** u32 words of an area-code record before its slots: 32 pairs of presence bits and rank. */
export const RECORD_HEAD = 64;
/** u16 units after the data, so reading an entry's second unit never leaves the buffer. */
export const PADDING_UNITS = 2;

/** Lines per exchange up to which a packed list is smaller than a bitmap. */
export const SPARSE_MAX = 713;
export const BITMAP_UNITS = LINES_PER_EXCHANGE / 16;
/** 32-bit words of one exchange's bitmap while a list is built. */
export const BUILD_WORDS = Math.ceil(LINES_PER_EXCHANGE / 32);

const COUNT_BITS = 2048;
const BITMAP_COUNT = 2047;
const LINE_BITS = 14;
const LINE_MASK = (1 << LINE_BITS) - 1;
/** Largest offset of an exchange's data from its area code's start: 21 bits. */
const MAX_OFFSET = 2 ** 21 - 1;

/** u16 units an exchange of `count` lines takes. */
export function unitsFor(count: number): number {
  return count > SPARSE_MAX ? BITMAP_UNITS : (7 * count + 7) >> 3;
}

export function isBitmap(slot: number): boolean {
  return (slot & (COUNT_BITS - 1)) === BITMAP_COUNT;
}

/** u16 units the exchange in `slot` takes. */
export function slotUnits(slot: number): number {
  const count = slot & (COUNT_BITS - 1);
  return count === BITMAP_COUNT ? BITMAP_UNITS : (7 * count + 7) >> 3;
}

/** The slot for an exchange of `count` lines at `offset` units from its area code's data start. */
export function slotFor(offset: number, count: number): number {
  if (offset > MAX_OFFSET) throw new RangeError(`Exchange data offset ${offset} does not fit a slot`);
  return offset * COUNT_BITS + (count > SPARSE_MAX ? BITMAP_COUNT : count);
}

/**
 * The u32 index of the slot of exchange `nxx` in the area-code record at `record`; 0 when the
 * exchange has no numbers.
 */
export function slotIndex(u32: Uint32Array, record: number, nxx: number): number {
  const pair = record + 2 * (nxx >> 5);
  const bits = u32[pair]!;
  const bit = 1 << (nxx & 31);
  if ((bits & bit) === 0) return 0;
  return record + RECORD_HEAD + u32[pair + 1]! + popcount32(bits & (bit - 1));
}

/** Where the exchange's data starts: its area code's start plus the slot's offset. */
export function dataStart(u32: Uint32Array, npa: number, slot: number): number {
  return u32[BASES + npa]! + (slot >>> 11);
}

function lineAt(u16: Uint16Array, p: number, i: number): number {
  const bit = LINE_BITS * i;
  const w = p + (bit >> 4);
  return ((u16[w]! | (u16[w + 1]! << 16)) >>> (bit & 15)) & LINE_MASK;
}

/** The u16 unit a lookup of `line` reads first: what a batch touches before it looks. */
export function firstUnit(slot: number, p: number, line: number): number {
  const count = slot & (COUNT_BITS - 1);
  if (count === BITMAP_COUNT) return p + (line >> 4);
  // A multiplication instead of slotHas's division: this only picks what to read ahead.
  return p + ((LINE_BITS * ((count * line * 0.0001) | 0)) >> 4);
}

/** Whether the exchange in `slot` (non-zero), its data at u16 `p`, holds `line`. No allocation. */
export function slotHas(slot: number, p: number, line: number, u16: Uint16Array): boolean {
  const count = slot & (COUNT_BITS - 1);
  if (count === BITMAP_COUNT) return ((u16[p + (line >> 4)]! >> (line & 15)) & 1) === 1;
  // Where the line would sit if the lines were evenly spread; then step to it.
  let i = ((count * line) / LINES_PER_EXCHANGE) | 0;
  let value = lineAt(u16, p, i);
  if (value < line) {
    while (++i < count) {
      value = lineAt(u16, p, i);
      if (value >= line) return value === line;
    }
    return false;
  }
  while (value > line) {
    if (--i < 0) return false;
    value = lineAt(u16, p, i);
  }
  return value === line;
}

/**
 * Encodes one exchange at u16 `p` (zeroed) from a build-time bitmap: `BUILD_WORDS` words at
 * `bits[at]` with `count` bits set.
 */
export function encodeExchange(
  bits: Uint32Array,
  at: number,
  count: number,
  u16: Uint16Array,
  p: number,
): void {
  if (count > SPARSE_MAX) {
    for (let w = 0; w < BUILD_WORDS; w++) {
      const word = bits[at + w]!;
      u16[p + 2 * w] = word & 0xffff;
      // The last word holds lines 9984-9999 in its low half only.
      if (w < BUILD_WORDS - 1) u16[p + 2 * w + 1] = word >>> 16;
    }
    return;
  }
  let i = 0;
  for (let w = 0; w < BUILD_WORDS && i < count; w++) {
    let set = bits[at + w]!;
    while (set !== 0) {
      const line = w * 32 + (31 - Math.clz32(set & -set));
      set &= set - 1;
      const bit = LINE_BITS * i++;
      const unit = p + (bit >> 4);
      const shift = bit & 15;
      u16[unit]! |= (line << shift) & 0xffff;
      if (shift > 16 - LINE_BITS) u16[unit + 1]! |= line >>> (16 - shift);
    }
  }
}

/** Sets the exchange's lines in a build-time bitmap (zeroed); returns how many there are. */
export function decodeExchange(
  slot: number,
  p: number,
  u16: Uint16Array,
  bits: Uint32Array,
  at: number,
): number {
  const count = slot & (COUNT_BITS - 1);
  if (count === BITMAP_COUNT) {
    let total = 0;
    for (let w = 0; w < BUILD_WORDS; w++) {
      const word = (u16[p + 2 * w]! | (w < BUILD_WORDS - 1 ? u16[p + 2 * w + 1]! << 16 : 0)) >>> 0;
      bits[at + w] = word;
      total += popcount32(word);
    }
    return total;
  }
  for (let i = 0; i < count; i++) {
    const line = lineAt(u16, p, i);
    bits[at + (line >> 5)]! |= 1 << (line & 31);
  }
  return count;
}

/** Lines of one encoded exchange, ascending. */
export function* exchangeLines(slot: number, p: number, u16: Uint16Array): Generator<number> {
  const count = slot & (COUNT_BITS - 1);
  if (count !== BITMAP_COUNT) {
    for (let i = 0; i < count; i++) yield lineAt(u16, p, i);
    return;
  }
  for (let w = 0; w < BITMAP_UNITS; w++) {
    let unit = u16[p + w]!;
    while (unit !== 0) {
      yield w * 16 + (31 - Math.clz32(unit & -unit));
      unit &= unit - 1;
    }
  }
}

function popcount32(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
