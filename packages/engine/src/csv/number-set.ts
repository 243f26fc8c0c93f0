const AREA_CODES = 1000;
const LINES_PER_AREA_CODE = 10_000_000;
const INITIAL_SLOTS = 64;

/**
 * The distinct 10-digit numbers of one file, for charging each once. A JavaScript Set of numbers
 * costs tens of bytes an entry and V8 caps it at 2^24 entries; this keeps, per area code, an
 * open-addressing hash table of the other seven digits in a Uint32Array (0 marks a free slot),
 * grown by doubling at three quarters full: 5.3 to 10.7 bytes a number, 10 M numbers in at most
 * about 107 MB.
 */
export class NumberSet {
  readonly #tables: (Uint32Array | undefined)[] = new Array(AREA_CODES);
  readonly #sizes = new Int32Array(AREA_CODES);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get byteLength(): number {
    let bytes = 0;
    for (const table of this.#tables) bytes += table?.byteLength ?? 0;
    return bytes;
  }

  /** Adds a 10-digit number (an integer below 10^10); true when it was not there yet. */
  add(number: number): boolean {
    const areaCode = (number / LINES_PER_AREA_CODE) | 0;
    const key = number - areaCode * LINES_PER_AREA_CODE + 1;
    let table = this.#tables[areaCode];
    if (table === undefined) {
      table = new Uint32Array(INITIAL_SLOTS);
      this.#tables[areaCode] = table;
    }
    if (!insert(table, key)) return false;
    this.#size++;
    const size = ++this.#sizes[areaCode]!;
    if (size * 4 > table.length * 3) this.#tables[areaCode] = grown(table);
    return true;
  }
}

/** Inserts a key (1 to 10^7) by linear probing from a Fibonacci hash; false when it is there. */
function insert(table: Uint32Array, key: number): boolean {
  const mask = table.length - 1;
  let slot = Math.imul(key, 0x9e3779b1) >>> Math.clz32(mask);
  for (;;) {
    const held = table[slot]!;
    if (held === 0) {
      table[slot] = key;
      return true;
    }
    if (held === key) return false;
    slot = (slot + 1) & mask;
  }
}

function grown(table: Uint32Array): Uint32Array {
  const next = new Uint32Array(table.length * 2);
  for (const key of table) if (key !== 0) insert(next, key);
  return next;
}
