import { afterEach, describe, expect, it, vi } from 'vitest';
import { isRetryableStatus, retryAfterMs, retryDelayMs } from './retry.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('isRetryableStatus', () => {
  it('retries timeouts, conflicts, rate limits and server faults only', () => {
    expect([408, 409, 429, 500, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 402, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-01T12:00:00Z') });

    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '2' }))).toBe(150);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:05 GMT' }))).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }))).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('doubles from half a second and stops at eight', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);

    expect([0, 1, 2, 3, 4, 5, 10].map((n) => retryDelayMs(n))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('takes off up to a quarter as jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);

    expect(retryDelayMs(0)).toBeCloseTo(375, 3);
    expect(retryDelayMs(4)).toBeCloseTo(6000, 1);
  });

  it('prefers what the server asked for, up to a minute', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);

    expect(retryDelayMs(3, new Headers({ 'retry-after': '60' }))).toBe(60_000);
    expect(retryDelayMs(3, new Headers({ 'retry-after': '0' }))).toBe(0);
    expect(retryDelayMs(3, new Headers({ 'retry-after': '61' }))).toBe(4000);
    expect(retryDelayMs(3, new Headers({ 'retry-after-ms': '-5' }))).toBe(4000);
  });
});
