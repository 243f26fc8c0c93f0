import { afterEach, describe, expect, it, vi } from 'vitest';
import { mobileAnswerOf } from '../../test/check-answers.js';
import { AnswerCache, type CachedAnswer } from './answer-cache.js';

const answer = (phone: string): CachedAnswer => ({
  answer: mobileAnswerOf(phone),
  paid: Promise.resolve(true),
});

describe('AnswerCache', () => {
  afterEach(() => vi.useRealTimers());

  it("reuses an account's answer for its generation only, until it expires", () => {
    vi.useFakeTimers();
    const cache = new AnswerCache({ ttlSeconds: 60, maxEntries: 10 });
    const entry = answer('+12012345678');
    cache.set('a', 'g1', '+12012345678', entry);

    expect(cache.get('a', 'g1', '+12012345678')).toBe(entry);
    expect(cache.get('b', 'g1', '+12012345678')).toBeUndefined();
    expect(cache.get('a', 'g2', '+12012345678')).toBeUndefined();
    vi.advanceTimersByTime(59_999);
    expect(cache.get('a', 'g1', '+12012345678')).toBe(entry);
    vi.advanceTimersByTime(1);
    expect(cache.get('a', 'g1', '+12012345678')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, the least recently used going first, across accounts', () => {
    // Under 64 entries, eviction makes room for exactly one more.
    const cache = new AnswerCache({ ttlSeconds: 60, maxEntries: 3 });
    cache.set('a', 'g', '1', answer('1'));
    cache.set('a', 'g', '2', answer('2'));
    cache.set('b', 'g', '3', answer('3'));
    expect(cache.get('a', 'g', '1')).toBeDefined(); // account a, number 1: used last
    cache.set('b', 'g', '4', answer('4')); // pushes out a's least recent: 2
    expect(cache.size).toBe(3);
    expect(cache.get('a', 'g', '2')).toBeUndefined();
    cache.set('c', 'g', '5', answer('5')); // b was used before a and c now: its 3 goes
    expect(cache.get('b', 'g', '3')).toBeUndefined();
    expect(
      ['1', '4', '5'].map(
        (n) => cache.get(n === '1' ? 'a' : n === '4' ? 'b' : 'c', 'g', n)?.answer.phone_number,
      ),
    ).toEqual(['1', '4', '5']);
  });

  it('makes room a 64th of the cache at a time, never holding more than maxEntries', () => {
    const cache = new AnswerCache({ ttlSeconds: 60, maxEntries: 6400 });
    for (let i = 0; i < 6400; i++) cache.set('a', 'g', String(i), answer(String(i)));
    expect(cache.size).toBe(6400);
    cache.set('a', 'g', 'new', answer('new'));
    expect(cache.size).toBe(6400 - 100);
    expect(cache.get('a', 'g', '100')).toBeUndefined();
    expect(cache.get('a', 'g', '101')).toBeDefined();
    expect(cache.get('a', 'g', 'new')).toBeDefined();
    for (let i = 0; i < 200_000; i++) cache.set('b', 'g', String(i), answer(String(i)));
    expect(cache.size).toBeLessThanOrEqual(6400);
  });

  it('forgets a deleted answer, and remembers nothing with a TTL of 0', () => {
    const cache = new AnswerCache({ ttlSeconds: 60, maxEntries: 10 });
    cache.set('a', 'g', '1', answer('1'));
    cache.delete('a', 'g', '1');
    expect(cache.get('a', 'g', '1')).toBeUndefined();
    expect(cache.size).toBe(0);

    const off = new AnswerCache({ ttlSeconds: 0, maxEntries: 10 });
    off.set('a', 'g', '1', answer('1'));
    expect(off.get('a', 'g', '1')).toBeUndefined();
  });
});
