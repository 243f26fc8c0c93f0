import { Worker } from 'node:worker_threads';
import { exchangeNumbers } from '@scrub/test-fixtures/dnc';
import { describe, expect, it } from 'vitest';
import { classifyCode } from '../classify.ts';
import { DncListBuilder } from './builder.ts';
import { BASES, slotIndex } from './encoding.ts';
import type { DncList } from './list.ts';
import { DncSet, MAX_DNC_LISTS } from './set.ts';

function listOf(name: string, numbers: readonly number[], version = 'v1'): DncList {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build(version);
}

const federal = listOf(
  'federal',
  [2125550142, 5125550100, 2015550123, ...exchangeNumbers(212_736, 2_000)],
  '2025-06-01',
);
const texas = listOf('state:TX', [5125550100, 5125550101], '2025-05-15');
const internal = listOf('internal:acct_42', [2015550123, 5125550101]);

describe('DncSet', () => {
  const set = new DncSet([federal, texas, internal]);

  it('sets one bit per list holding the number, and names those lists', () => {
    expect(set.mask(2125550142)).toBe(0b001);
    expect(set.mask(5125550100)).toBe(0b011);
    expect(set.mask(5125550101)).toBe(0b110);
    expect(set.mask(2015550123)).toBe(0b101);
    expect(set.mask(3035550123)).toBe(0);
    expect(set.sources(5125550100)).toEqual(['federal', 'state:TX']);
    expect(set.sources(2015550123)).toEqual(['federal', 'internal:acct_42']);
    expect(set.sources(3035550123)).toEqual([]);
    expect(set.has(5125550101)).toBe(true);
    expect(set.has(3035550123)).toBe(false);
  });

  it('answers 0 for anything that is not a 10-digit integer', () => {
    for (const value of [2125550142.5, -1, 1e10, Number.NaN]) expect(set.mask(value)).toBe(0);
  });

  it("maskMany gives mask's answers for many numbers at once, any range of them", () => {
    const numbers: number[] = [];
    for (let i = 0; i < 3_000; i++) {
      numbers.push(
        2127360000 + ((i * 7919) % 10_000),
        5125550100 + (i % 3),
        2015550120 + (i % 5),
        3035550000 + i,
      );
    }
    numbers.push(Number.NaN, -1, 1e10, 2125550142.5, 0, 9999999999);
    const masks = new Uint32Array(numbers.length).fill(0xdead);
    set.maskMany(numbers, masks);
    expect([...masks]).toEqual(numbers.map((number) => set.mask(number)));
    expect(masks.filter((mask) => mask !== 0).length).toBe(4_600);

    const part = new Uint32Array(numbers.length).fill(7);
    set.maskMany(Float64Array.from(numbers), part, 100, 700);
    expect([...part.subarray(100, 700)]).toEqual(numbers.slice(100, 700).map((number) => set.mask(number)));
    expect(part[99]).toBe(7);
    expect(part[700]).toBe(7);
    expect(() => set.maskMany(numbers, new Uint32Array(10))).toThrow(RangeError);
    new DncSet().maskMany(numbers, masks);
    expect(masks.every((mask) => mask === 0)).toBe(true);
  });

  it('says each list version, for answers and /health', () => {
    expect(set.version).toBe('federal@2025-06-01,state:TX@2025-05-15,internal:acct_42@v1');
    expect(set.versions()).toEqual({
      federal: '2025-06-01',
      'state:TX': '2025-05-15',
      'internal:acct_42': 'v1',
    });
    expect(set.byteLength).toBe(federal.byteLength + texas.byteLength + internal.byteLength);
  });

  it('swaps a list for its new version in a new set; the old set answers as before', () => {
    const builder = new DncListBuilder('state:TX', { base: texas });
    builder.delete(5125550100);
    const next = set.with(builder.build('2025-06-15'));

    expect(next.mask(5125550100)).toBe(0b001);
    expect(set.mask(5125550100)).toBe(0b011);
    expect(next.versions()['state:TX']).toBe('2025-06-15');
    expect(next.without('federal').sources(5125550101)).toEqual(['state:TX', 'internal:acct_42']);
    expect(next.without('federal').mask(5125550101)).toBe(0b11);
    expect(set.with(listOf('state:FL', [3055550100])).sources(3055550100)).toEqual(['state:FL']);
  });

  it('uses all 32 bits, and refuses a 33rd list or two lists of one name', () => {
    const lists = Array.from({ length: MAX_DNC_LISTS }, (_, i) =>
      listOf(`internal:${i}`, [2015550100 + i, 2015559999]),
    );
    const full = new DncSet(lists);
    expect(full.mask(2015550100 + 31)).toBe(2 ** 31);
    expect(full.mask(2015559999)).toBe(2 ** 32 - 1);
    expect(full.sources(2015550100 + 31)).toEqual(['internal:31']);
    const masks = new Uint32Array(2);
    full.maskMany([2015550100 + 31, 2015559999], masks);
    expect([...masks]).toEqual([2 ** 31, 2 ** 32 - 1]);
    expect(() => new DncSet([...lists, federal])).toThrow(RangeError);
    expect(() => new DncSet([federal, federal])).toThrow(/Two lists named "federal"/);
  });

  it('answers the same in a worker thread, from the same memory, not a copy', async () => {
    const shared = set.toShared();
    expect(shared.lists.map((list) => list.buffer)).toEqual(set.lists.map((list) => list.buffer));
    const worker = new Worker(new URL('./dnc-worker.fixture.ts', import.meta.url), { workerData: shared });
    const ask = (numbers: number[]) =>
      new Promise<{ version: string; shared: boolean; answers: number[][] }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage(numbers);
      });
    try {
      const numbers = [2125550142, 5125550100, 5125550101, 2015550123, 3035550123, 2127369999, 2127360000];
      const reply = await ask(numbers);
      expect(reply.version).toBe(set.version);
      expect(reply.shared).toBe(true);
      expect(reply.answers).toEqual(numbers.map((number) => [classifyCode(number), set.mask(number)]));

      // Proof of sharing: a bit set here, in a bitmap exchange of the federal list's buffer, is
      // seen by the worker at once. (Lists are never written after they are built; this test
      // writes one only to show there is one copy of it.)
      const absent = 2127369999;
      const wasFederal = federal.has(absent);
      const u32 = new Uint32Array(federal.buffer);
      const u16 = new Uint16Array(federal.buffer);
      expect(federal.encodingOf(212_736)).toBe('bitmap');
      const slot = u32[slotIndex(u32, u32[212]!, 736)]!;
      const word = u32[BASES + 212]! + (slot >>> 11) + (9999 >> 4);
      u16[word]! ^= 1 << (9999 & 15);
      const after = await ask([absent]);
      u16[word]! ^= 1 << (9999 & 15);
      expect(after.answers[0]![1]! & 1).toBe(wasFederal ? 0 : 1);
    } finally {
      await worker.terminate();
    }
  });
  it('keeps a stale list flagging its numbers, covering none, across threads and new sets', () => {
    const aged = set.withStale(['federal']);
    expect(aged.stale).toEqual(['federal']);
    expect(aged.mask(2125550142)).toBe(0b001);
    expect(aged.covering(2125550143)).toBe(0b100);
    expect(aged.coveringAtAnyAge(2125550143)).toBe(0b101);
    expect(set.covering(2125550143)).toBe(0b101);
    expect(set.withStale([])).toBe(set);
    expect(DncSet.fromShared(aged.toShared()).covering(2125550143)).toBe(0b100);
    expect(aged.with(listOf('internal:acct_42', [])).stale).toEqual(['federal']);
    expect(aged.with(listOf('federal', [], '2025-07-01')).stale).toEqual([]);
  });
});
