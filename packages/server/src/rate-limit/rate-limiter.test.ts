import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import { RateLimitStore } from './rate-limit-store.js';
import { type RatePolicy, SharedRateLimiter } from './rate-limiter.js';

const perMinute = (max: number): RatePolicy => ({ name: 'key', max, windowSeconds: 60 });

describe.each(testDatabases())('rate limits shared on $kind', ({ open }) => {
  let database: DatabaseHandle;
  let now: number;
  const clock = () => now;
  /** One more process of the service: its own leases, the same database. */
  const process = () => new SharedRateLimiter(new RateLimitStore(database.db, clock), clock);

  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    now = Date.UTC(2026, 0, 1, 12, 0, 10);
  });
  afterEach(() => database.close());

  async function allowedOf(limiter: SharedRateLimiter, policy: RatePolicy, id: string, count: number) {
    let allowed = 0;
    for (let i = 0; i < count; i++) if ((await limiter.take([{ policy, id }]))[0]?.allowed) allowed++;
    return allowed;
  }

  it('allows the limit in a window, refuses the rest until the window ends, then allows again', async () => {
    const limiter = process();
    const policy = perMinute(3);
    const states = [];
    for (let i = 0; i < 4; i++) states.push((await limiter.take([{ policy, id: 'a' }]))[0]);
    expect(states.map((s) => s?.allowed)).toEqual([true, true, true, false]);
    expect(states.map((s) => s?.remaining)).toEqual([2, 1, 0, 0]);
    expect(states[3]?.resetSeconds).toBe(50);
    expect(await allowedOf(limiter, policy, 'b', 1)).toBe(1);
    now += 50_000;
    expect(await allowedOf(limiter, policy, 'a', 4)).toBe(3);
  });

  it('a burst of concurrent requests shares one lease: all within the limit are allowed, the rest refused', async () => {
    const limiter = process();
    const policy = perMinute(1000);
    const burst = await Promise.all(Array.from({ length: 1200 }, () => limiter.take([{ policy, id: 'a' }])));
    expect(burst.filter(([state]) => state?.allowed)).toHaveLength(1000);
  });

  it('two processes together never hand out more than the limit, even with leases of several units', async () => {
    const [one, two] = [process(), process()];
    const policy = perMinute(50);
    const results = await Promise.all([
      allowedOf(one, policy, 'shared', 40),
      allowedOf(two, policy, 'shared', 40),
    ]);
    expect(results[0] + results[1]).toBe(50);
    // A third process, started late, finds the window spent.
    expect(await allowedOf(process(), policy, 'shared', 5)).toBe(0);
  });

  it('a request is refused when any of its policies is spent', async () => {
    const limiter = process();
    const key = perMinute(5);
    const account: RatePolicy = { name: 'account', max: 2, windowSeconds: 60 };
    const take = () =>
      limiter.take([
        { policy: key, id: 'p1' },
        { policy: account, id: 'p1' },
      ]);
    expect((await take()).every((s) => s.allowed)).toBe(true);
    expect((await take()).every((s) => s.allowed)).toBe(true);
    expect((await take()).map((s) => s.allowed)).toEqual([true, false]);
  });

  it('deletes windows that have ended', async () => {
    const limiter = process();
    await allowedOf(limiter, perMinute(3), 'old', 1);
    now += 3 * 60_000;
    await allowedOf(process(), perMinute(3), 'new', 1);
    const buckets = await database.db.selectFrom('rate_limit_windows').select('bucket').execute();
    expect(buckets.map((b) => b.bucket)).toEqual(['key:new']);
  });
});
