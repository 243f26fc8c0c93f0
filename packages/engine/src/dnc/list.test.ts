import { exchangeNumbers } from '@scrub/test-fixtures/dnc';
import { describe, expect, it } from 'vitest';
import { DncListBuilder } from './builder.ts';
import { SPARSE_MAX } from './encoding.ts';
import { DncList } from './list.ts';

function listOf(numbers: readonly number[], version = 'v1'): DncList {
  const builder = new DncListBuilder('federal');
  for (const number of numbers) builder.add(number);
  return builder.build(version);
}

/** Every line of an exchange, checked against the numbers it should hold. */
function expectExactly(list: DncList, exchange: number, numbers: readonly number[]): void {
  const expected = new Set(numbers);
  const wrong: number[] = [];
  for (let line = 0; line < 10_000; line++) {
    const number = exchange * 10_000 + line;
    if (list.has(number) !== expected.has(number)) wrong.push(number);
  }
  expect(wrong).toEqual([]);
}

describe('DncList', () => {
  it('holds the numbers added, in any order, once each', () => {
    const numbers = [2125550142, 2015550123, 9999999999, 2000000000, 2125550142, 8005550100];
    const list = listOf(numbers);

    expect(list.size).toBe(5);
    expect(list.exchanges).toBe(5);
    for (const number of numbers) expect(list.has(number)).toBe(true);
    expect(list.has(2125550143)).toBe(false);
    expect(list.has(2135550142)).toBe(false);
    expect([...list.numbers()]).toEqual([2000000000, 2015550123, 2125550142, 8005550100, 9999999999]);
    expect(list.name).toBe('federal');
    expect(list.version).toBe('v1');
  });

  it('answers false for anything that is not a 10-digit integer, without throwing', () => {
    const list = listOf([2015550123]);
    for (const value of [2015550123.5, -2015550123, 12015550123, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(list.has(value)).toBe(false);
    }
  });

  it('stores an exchange as a packed list up to 713 lines, as a bitmap from 714, the smaller of the two', () => {
    const sizes = [1, 2, 8, 100, SPARSE_MAX, SPARSE_MAX + 1, 9_999, 10_000];
    const exchanges = sizes.map((_, i) => 212_700 + i);
    const byExchange = exchanges.map((exchange, i) => exchangeNumbers(exchange, sizes[i]!));
    const list = listOf(byExchange.flat());

    expect(exchanges.map((exchange) => list.encodingOf(exchange))).toEqual([
      'sparse',
      'sparse',
      'sparse',
      'sparse',
      'sparse',
      'bitmap',
      'bitmap',
      'bitmap',
    ]);
    expect(list.encodingOf(212_799)).toBeNull();
    exchanges.forEach((exchange, i) => {
      expectExactly(list, exchange, byExchange[i]!);
    });
    expect([...list.numbers()]).toEqual(byExchange.flat().sort((a, b) => a - b));
  });

  it('finds lines wherever they sit: first and last line, bunched at one end, in every encoding', () => {
    const exchange = 303_555;
    const first = exchange * 10_000;
    const cases = [
      [first, first + 9_999],
      [first, first + 9_999, ...exchangeNumbers(exchange, 198, 13)],
      Array.from({ length: 300 }, (_, i) => first + i),
      Array.from({ length: 300 }, (_, i) => first + 9_999 - i),
      Array.from({ length: 300 }, (_, i) => first + 5_000 + i * 3),
      [first, first + 9_999, ...exchangeNumbers(exchange, 4_998, 13)],
    ];
    for (const numbers of cases) expectExactly(listOf(numbers), exchange, numbers);
  });

  it('never takes more than 2 bytes per number for its data, and says where its bytes go', () => {
    for (const count of [1, 2, 3, 7, 8, 9, 100, SPARSE_MAX, SPARSE_MAX + 1, 5_000, 10_000]) {
      const stats = listOf(exchangeNumbers(415_867, count)).stats();
      expect(stats.dataBytes).toBeLessThanOrEqual(2 * count);
      expect(stats.dataBytes).toBeLessThanOrEqual(1_250);
      expect(stats.dataBytes).toBeLessThanOrEqual(1.75 * count + 2);
    }
    const list = listOf([
      ...exchangeNumbers(212_736, 50),
      ...exchangeNumbers(212_737, 700),
      ...exchangeNumbers(646_201, 2_000),
    ]);
    const stats = list.stats();
    // The two tables of area-code entries, a record each for 212 and 646 (256 bytes and 4 per
    // exchange), then the lines: 50 and 700 packed at 14 bits (88 and 1,226 bytes), and a bitmap.
    expect(stats).toEqual({
      size: 2_750,
      exchanges: 3,
      sparse: 2,
      bitmap: 1,
      indexBytes: 8_000 + 2 * 256 + 3 * 4,
      dataBytes: 88 + 1_226 + 1_250,
      byteLength: list.byteLength,
    });
    expect(list.byteLength).toBe(Math.ceil((stats.indexBytes + stats.dataBytes + 4) / 8) * 8);
  });

  it('is built on a SharedArrayBuffer, which toShared hands over as it is', () => {
    const list = listOf([2015550123]);
    expect(list.buffer).toBeInstanceOf(SharedArrayBuffer);
    const shared = list.toShared();
    expect(shared.buffer).toBe(list.buffer);
    const mapped = DncList.fromShared(shared);
    expect(mapped.has(2015550123)).toBe(true);
    expect(mapped.version).toBe('v1');
  });

  it('an empty list answers no to everything', () => {
    const list = DncList.empty('internal:acct_1', 'empty');
    expect(list.has(2015550123)).toBe(false);
    expect(list.size).toBe(0);
    expect([...list.numbers()]).toEqual([]);
    expect(listOf([]).byteLength).toBe(8_008);
    expect(list.byteLength).toBe(8_008);
  });
});

describe('DncListBuilder', () => {
  it('builds from a base list without touching it; untouched exchanges are copied as they are', () => {
    const dense = exchangeNumbers(212_736, 3_000);
    const sparse = exchangeNumbers(212_737, 300);
    const base = listOf([...dense, ...sparse, 2015550123, 2015550124]);
    const baseBytes = Buffer.from(new Uint8Array(base.buffer)).toString('base64');

    const builder = new DncListBuilder('federal', { base });
    expect(builder.delete(2015550123)).toBe(true);
    expect(builder.delete(2015550123)).toBe(false);
    expect(builder.delete(3035550123)).toBe(false);
    expect(builder.add(dense[0]!)).toBe(false);
    expect(builder.add(2025550100)).toBe(true);
    expect(builder.has(2025550100)).toBe(true);
    expect(builder.has(dense[1]!)).toBe(true);
    const next = builder.build('v2');

    expect(next.version).toBe('v2');
    expect(next.size).toBe(base.size);
    expect(next.has(2015550123)).toBe(false);
    expect(next.has(2015550124)).toBe(true);
    expect(next.has(2025550100)).toBe(true);
    expectExactly(next, 212_736, dense);
    expectExactly(next, 212_737, sparse);
    expect(base.has(2015550123)).toBe(true);
    expect(base.has(2025550100)).toBe(false);
    expect(Buffer.from(new Uint8Array(base.buffer)).toString('base64')).toBe(baseBytes);
  });

  it('drops an exchange whose numbers are all deleted, and its area code once it has none', () => {
    const base = listOf([2015550123, 3035550123]);
    const builder = new DncListBuilder('federal', { base });
    builder.delete(3035550123);
    const next = builder.build('v2');
    expect([...next.numbers()]).toEqual([2015550123]);
    expect(next.stats().indexBytes).toBe(8_000 + 256 + 4);
    expect(next.encodingOf(303_555)).toBeNull();
  });

  it('moves an exchange between encodings as numbers come and go', () => {
    const numbers = exchangeNumbers(212_736, SPARSE_MAX + 1);
    const base = listOf(numbers);
    expect(base.encodingOf(212_736)).toBe('bitmap');
    const builder = new DncListBuilder('federal', { base });
    for (const number of numbers.slice(SPARSE_MAX)) builder.delete(number);
    const next = builder.build('v2');
    expect(next.encodingOf(212_736)).toBe('sparse');
    expectExactly(next, 212_736, numbers.slice(0, SPARSE_MAX));
  });

  it('refuses what is not a 10-digit number', () => {
    const builder = new DncListBuilder('federal');
    expect(() => builder.add(2015550123.5)).toThrow(RangeError);
    expect(() => builder.add(12015550123)).toThrow(RangeError);
    expect(() => new DncListBuilder('')).toThrow(RangeError);
  });

  it('accounts for the memory it holds while building: one bitmap per exchange touched', () => {
    const builder = new DncListBuilder('federal');
    const empty = builder.byteLength;
    builder.add(2015550123);
    const oneChunk = builder.byteLength - empty;
    for (let nxx = 200; nxx < 300; nxx++) builder.add(2_010_000_000 + nxx * 10_000);
    expect(builder.byteLength - empty).toBe(oneChunk);
    expect(oneChunk).toBe(256 * 1252);
  });
});
