import { describe, expect, it } from 'vitest';
import { NumberSet } from './number-set.ts';

describe('NumberSet', () => {
  it('says whether a number is new, across area codes and the ends of the range', () => {
    const set = new NumberSet();
    for (const number of [2015550123, 2015550124, 9995550123, 0, 9_999_999_999, 2_000_000_000]) {
      expect(set.add(number)).toBe(true);
      expect(set.add(number)).toBe(false);
    }
    expect(set.size).toBe(6);
  });

  it('holds a million numbers in at most 10.7 bytes each, counting each once', () => {
    const set = new NumberSet();
    let seed = 99;
    const numbers: number[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      numbers.push(2_000_000_000 + (seed % 100) * 10_000_000 + ((Math.imul(seed, 7) >>> 0) % 10_000_000));
    }
    let added = 0;
    for (const number of numbers) if (set.add(number)) added++;
    expect(added).toBe(new Set(numbers).size);
    expect(set.size).toBe(added);
    for (const number of numbers.slice(0, 1000)) expect(set.add(number)).toBe(false);
    expect(set.byteLength / set.size).toBeLessThanOrEqual(10.7);
  });
});
