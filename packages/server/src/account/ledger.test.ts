import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { hashApiKey, rotateApiKey } from '../auth/api-keys.js';
import { ApiError } from '../errors/api-error.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import { applyLedgerEntry, ledgerTotals } from './ledger.js';
import { ensureProfile } from './profiles.js';

const person = (n: number) => ({
  sub: `sub-${n}`,
  email: `p${n}@example.com`,
  name: null,
  role: 'User' as const,
});

describe.each(testDatabases())('accounts storage on $kind', ({ open }) => {
  let database: DatabaseHandle;
  let profileId: string;
  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    profileId = (await ensureProfile(database.db, person(1))).id;
  });
  afterEach(async () => {
    await database.close();
  });

  const apply = (delta: number, kind: 'grant' | 'check' = delta > 0 ? 'grant' : 'check') =>
    applyLedgerEntry(database.db, { profileId, delta, kind });

  it('200 concurrent debits of 1 against 50 credits: exactly 50 succeed and the balance ends at 0', async () => {
    await apply(50);
    const outcomes = await Promise.allSettled(Array.from({ length: 200 }, () => apply(-1)));
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(succeeded).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'insufficient_credits', status: 402 });
      expect(error.extra).toEqual({ credits_required: 1, credits_available: 0 });
    }
    expect(await ledgerTotals(database.db, profileId)).toEqual({ balance: 0, sum: 0, entries: 51 });
    const balances = succeeded
      .map((o) => (o.status === 'fulfilled' ? o.value.balance : -1))
      .sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('mixed grants and charges racing on two accounts: never negative, balance always the sum', async () => {
    const otherId = (await ensureProfile(database.db, person(2))).id;
    const ids = [profileId, otherId];
    const changes = Array.from({ length: 120 }, (_, i) => ({
      profileId: ids[i % 2]!,
      delta: i % 3 === 0 ? 7 : -3,
    }));
    await Promise.allSettled(
      changes.map((c) =>
        applyLedgerEntry(database.db, { ...c, kind: c.delta > 0 ? 'purchase' : 'bulk_charge' }),
      ),
    );
    for (const id of ids) {
      const totals = await ledgerTotals(database.db, id);
      expect(totals.balance).toBe(totals.sum);
      expect(totals.balance).toBeGreaterThanOrEqual(0);
    }
    const { rows } = await sql<{ n: number }>`
      select count(*)::int8 as n from credit_ledger where balance_after < 0`.execute(database.db);
    expect(rows[0]?.n).toBe(0);
  });

  it('says how many credits were needed and how many there are', async () => {
    await apply(5);
    await expect(apply(-8)).rejects.toMatchObject({
      code: 'insufficient_credits',
      message: 'Not enough credits: this needs 8 and the account has 5.',
      extra: { credits_required: 8, credits_available: 5 },
    });
  });

  it('joins a larger transaction: rolled back, it leaves no entry and no balance change', async () => {
    await apply(10);
    await database.db
      .transaction()
      .execute(async (trx) => {
        await applyLedgerEntry(trx, { profileId, delta: -4, kind: 'bulk_charge', reference: 'job_1' });
        throw new Error('the job could not be queued');
      })
      .catch(() => undefined);
    expect(await ledgerTotals(database.db, profileId)).toEqual({ balance: 10, sum: 10, entries: 1 });
  });

  it('refuses a zero or fractional change before touching the database', async () => {
    await expect(apply(0)).rejects.toThrow(RangeError);
    await expect(apply(1.5)).rejects.toThrow(RangeError);
  });

  it('has the database refuse a negative balance even from a stray statement', async () => {
    await expect(
      sql`update profiles set credits = -1 where id = ${profileId}`.execute(database.db),
    ).rejects.toThrow(/check/i);
  });

  it('creates one profile for concurrent first calls of the same person', async () => {
    const profiles = await Promise.all(
      Array.from({ length: 20 }, () => ensureProfile(database.db, person(9))),
    );
    expect(new Set(profiles.map((p) => p.id)).size).toBe(1);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int8 as n from profiles where sub = 'sub-9'`.execute(database.db);
    expect(rows[0]?.n).toBe(1);
  });

  it('keeps one active API key however many rotations race, and stores only hashes', async () => {
    const issued = await Promise.all(Array.from({ length: 10 }, () => rotateApiKey(database.db, profileId)));
    const rows = await database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('profile_id', '=', profileId)
      .execute();
    expect(rows).toHaveLength(10);
    const active = rows.filter((r) => r.revoked_at === null);
    expect(active).toHaveLength(1);
    const winner = issued.find((k) => k.api_key_id === active[0]?.id);
    expect(active[0]?.key_hash).toBe(hashApiKey(winner!.api_key));
    const stored = JSON.stringify(rows);
    for (const key of issued) expect(stored).not.toContain(key.api_key.slice(6));
  });
});
