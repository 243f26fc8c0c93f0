import { describe, expect, it } from 'vitest';
import { NumberSet } from './number-set.ts';

/** A deterministic generator of integers below `n`. */
function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return Math.floor((seed / 2 ** 32) * n);
  };
}

/** Adds every number to a NumberSet and a Set, checking that they agree at each step and after. */
function agreesWithSet(numbers: Iterable<number>): NumberSet {
  const set = new NumberSet();
  const reference = new Set<number>();
  for (const number of numbers) {
    if (set.add(number) !== !reference.has(number)) throw new Error(`add(${number}) disagrees with a Set`);
    reference.add(number);
  }
  expect(set.size).toBe(reference.size);
  for (const number of reference) if (set.add(number)) throw new Error(`${number} was lost`);
  expect(set.size).toBe(reference.size);
  return set;
}

// Hundreds of thousands of numbers a test: seconds on a busy machine, more than the default 5 s allows.
describe('NumberSet', { timeout: 30_000 }, () => {
  it('says whether a number is new, across area codes and the ends of the range', () => {
    const set = new NumberSet();
    for (const number of [2015550123, 2015550124, 9995550123, 0, 9_999_999_999, 2_000_000_000]) {
      expect(set.add(number)).toBe(true);
      expect(set.add(number)).toBe(false);
    }
    expect(set.size).toBe(6);
  });

  it('holds lines 0000 and 9999 of an exchange, and the ends of an area code', () => {
    const set = new NumberSet();
    for (const number of [2015550000, 2015559999, 2010000000, 2019999999, 2015550001, 2015559998]) {
      expect(set.add(number)).toBe(true);
    }
    for (const number of [2015550000, 2015559999, 2010000000, 2019999999])
      expect(set.add(number)).toBe(false);
    expect(set.add(2025550000)).toBe(true);
    expect(set.size).toBe(7);
  });

  it('keeps every number through each growth of a table', () => {
    const set = new NumberSet();
    const draw = random(5);
    const numbers: number[] = [];
    let byteLength = set.byteLength;
    let growths = 0;
    while (numbers.length < 200_000) {
      const number = 3_120_000_000 + draw(10_000_000);
      if (!set.add(number)) continue;
      numbers.push(number);
      if (set.byteLength === byteLength) continue;
      // The table just grew: everything before is still there, and the next numbers are new.
      growths++;
      byteLength = set.byteLength;
      for (const held of numbers) if (set.add(held)) throw new Error(`${held} lost when the table grew`);
    }
    expect(growths).toBeGreaterThan(8);
    expect(set.size).toBe(numbers.length);
  });

  it('agrees with a Set on random numbers, some repeated, across many exchanges', () => {
    const draw = random(11);
    const numbers: number[] = [];
    for (let i = 0; i < 300_000; i++) {
      numbers.push(i > 0 && draw(10) === 0 ? numbers[draw(i)]! : 2_000_000_000 + draw(8_000_000_000));
    }
    agreesWithSet(numbers);
  });

  it('agrees with a Set on dense exchanges (every line) and sparse ones in the same area codes', () => {
    const draw = random(17);
    const numbers: number[] = [];
    for (let exchange = 0; exchange < 30; exchange++) {
      for (let line = 0; line < 10_000; line++) numbers.push(7_185_550_000 + exchange * 10_000 + line);
    }
    for (let i = 0; i < 100_000; i++) numbers.push(7_180_000_000 + draw(10_000_000)); // some repeat the above
    for (let i = 0; i < 100_000; i++) numbers.push(4_150_000_000 + draw(10) * 10_000 + draw(10_000));
    for (let i = numbers.length - 1; i > 0; i--) {
      const j = draw(i + 1);
      [numbers[i], numbers[j]] = [numbers[j]!, numbers[i]!];
    }
    const set = agreesWithSet(numbers);
    expect(set.byteLength / set.size).toBeLessThanOrEqual(4.2);
  });

  it('counts its fixed arrays in byteLength', () => {
    const set = new NumberSet();
    expect(set.byteLength).toBeGreaterThanOrEqual(8000); // per area code: a quotient and a size
    const empty = set.byteLength;
    set.add(2015550123);
    expect(set.byteLength).toBe(empty + 4096); // the first table of an area code: 2,048 16-bit slots
  });

  it('holds a lead list in about 3 to 4 bytes a number, counting each once', () => {
    // 100 area codes x 700 exchanges, 1,000,000 draws (3% repeats): 10,000 numbers an area code.
    const draw = random(99);
    const exchanges: number[] = [];
    for (let areaCode = 0; areaCode < 100; areaCode++) {
      for (let exchange = 0; exchange < 700; exchange++)
        exchanges.push((200 + areaCode * 7) * 1000 + 100 + exchange);
    }
    const numbers: number[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      numbers.push(
        i > 0 && draw(100) < 3
          ? numbers[draw(i)]!
          : exchanges[draw(exchanges.length)]! * 10_000 + draw(10_000),
      );
    }
    const set = new NumberSet();
    let added = 0;
    for (const number of numbers) if (set.add(number)) added++;
    expect(added).toBe(new Set(numbers).size);
    expect(set.size).toBe(added);
    for (const number of numbers.slice(0, 1000)) expect(set.add(number)).toBe(false);
    expect(set.byteLength / set.size).toBeLessThanOrEqual(4.2);
  });

  it('holds an area code with very many numbers as a bitmap of its lines: at most 1.25 MB', () => {
    const set = new NumberSet();
    const fixed = set.byteLength;
    const draw = random(7);
    const numbers = Array.from({ length: 500_000 }, () => 2_010_000_000 + draw(10_000_000));
    const distinct = new Set(numbers).size;
    let added = 0;
    for (const number of numbers) if (set.add(number)) added++;
    expect(added).toBe(distinct);
    let addedAgain = 0;
    for (const number of numbers) if (set.add(number)) addedAgain++;
    expect(addedAgain).toBe(0);
    expect(set.byteLength - fixed).toBeLessThanOrEqual(1_250_000);
  });

  it('stays within 1.25 MB an area code when its numbers collide (a poor multiplier forced)', () => {
    // Multiplier 1: consecutive numbers get consecutive hashes, all with the same home slot, so
    // the table must grow for each few numbers; it becomes a bitmap instead of growing past 1.25 MB.
    const set = new NumberSet(1);
    const fixed = set.byteLength;
    for (let line = 0; line < 30_000; line++) expect(set.add(2_012_340_000 + line)).toBe(true);
    for (let line = 0; line < 30_000; line++) expect(set.add(2_012_340_000 + line)).toBe(false);
    expect(set.size).toBe(30_000);
    expect(set.byteLength - fixed).toBeLessThanOrEqual(1_250_000);
  });
});
