import { UNLIMITED_PLAN_REFERENCES } from '@scrub/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import { seedPlans } from '../plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { CheckCharger } from './check-charger.js';

const person = (n: number) => ({
  sub: `charger-${n}`,
  email: `c${n}@example.com`,
  name: null,
  role: 'User' as const,
});

describe.each(testDatabases())('check charges on $kind', ({ kind, open }) => {
  let database: DatabaseHandle & { url?: string };
  /** A second connection to the same database, as another process would hold. */
  const open2 = () => openDatabase({ kind: 'postgres', url: database.url! });
  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    await seedPlans(database.db);
  });
  afterEach(() => database.close());

  const account = async (n: number, credits: number) => {
    const { id } = await ensureProfile(database.db, person(n));
    if (credits > 0) await applyLedgerEntry(database.db, { profileId: id, delta: credits, kind: 'grant' });
    return id;
  };

  it('two chargers on one database (two processes) take exactly the balance and no more', async () => {
    const profileId = await account(1, 500);
    const chargers = [new CheckCharger(database.db), new CheckCharger(database.db)];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 800 }, (_, i) =>
        chargers[i % 2]!.charge(profileId, 1, `+1201555${String(i).padStart(4, '0')}`),
      ),
    );
    const charged = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(charged).toHaveLength(500);
    expect(refused).toHaveLength(300);
    for (const error of refused) expect(error).toBeInstanceOf(ApiError);
    expect(await ledgerTotals(database.db, profileId)).toEqual({ balance: 0, sum: 0, entries: 501 });
  });

  it('charges several accounts in one batch, each from its own balance', async () => {
    const rich = await account(2, 10);
    const poor = await account(3, 1);
    const charger = new CheckCharger(database.db);
    const outcomes = await Promise.allSettled([
      charger.charge(rich, 1, 'a'),
      charger.charge(poor, 1, 'b'),
      charger.charge(rich, 1, 'c'),
      charger.charge(poor, 1, 'd'),
      charger.charge(poor, 0, 'e'),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'refused'))).toEqual([
      { unlimited: false, deducted: 1, remaining: 9 },
      { unlimited: false, deducted: 1, remaining: 0 },
      { unlimited: false, deducted: 1, remaining: 8 },
      'refused',
      { unlimited: false, deducted: 0, remaining: 0 },
    ]);
    const entries = await database.db
      .selectFrom('credit_ledger')
      .select(['reference', 'balance_after'])
      .where('kind', '=', 'check')
      .orderBy('id')
      .execute();
    expect(entries).toHaveLength(3);
    expect(entries).toEqual(
      expect.arrayContaining([
        { reference: 'a', balance_after: 9 },
        { reference: 'c', balance_after: 8 },
        { reference: 'b', balance_after: 0 },
      ]),
    );
  });
  it('charges an account that can pay in order, one entry each, and never a paused or unlimited plan', async () => {
    const paying = await account(4, 5);
    const paused = await account(5, 5);
    const unlimited = await account(6, 5);
    const expired = await account(7, 5);
    const plan = (
      id: string,
      set: { plan_reference?: string; plan_status?: 'paused'; plan_expires_at?: Date },
    ) => database.db.updateTable('profiles').set(set).where('id', '=', id).execute();
    const unlimitedPlan = { plan_reference: UNLIMITED_PLAN_REFERENCES[0] };
    await plan(paused, { plan_status: 'paused' });
    await plan(unlimited, unlimitedPlan);
    await plan(expired, { ...unlimitedPlan, plan_expires_at: new Date(Date.now() - 60_000) });
    const charger = new CheckCharger(database.db);
    const outcomes = await Promise.allSettled([
      charger.charge(paying, 1, 'p1'),
      charger.charge(paying, 0, 'p-cached'),
      charger.charge(paying, 1, 'p2'),
      charger.charge(paused, 1, 'paused'),
      charger.charge(unlimited, 1, 'unlimited'),
      charger.charge(expired, 1, 'expired'),
      charger.charge(paying, 1, 'p3'),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as ApiError).code))).toEqual([
      { unlimited: false, deducted: 1, remaining: 4 },
      { unlimited: false, deducted: 0, remaining: 4 },
      { unlimited: false, deducted: 1, remaining: 3 },
      'plan_paused',
      { unlimited: true },
      { unlimited: false, deducted: 1, remaining: 4 },
      { unlimited: false, deducted: 1, remaining: 2 },
    ]);
    const entries = await database.db
      .selectFrom('credit_ledger')
      .select(['profile_id', 'reference', 'delta', 'balance_after'])
      .where('kind', '=', 'check')
      .orderBy('id')
      .execute();
    expect(entries.filter((e) => e.profile_id === paying)).toEqual([
      { profile_id: paying, reference: 'p1', delta: -1, balance_after: 4 },
      { profile_id: paying, reference: 'p2', delta: -1, balance_after: 3 },
      { profile_id: paying, reference: 'p3', delta: -1, balance_after: 2 },
    ]);
    expect(entries.filter((e) => e.profile_id !== paying)).toEqual([
      { profile_id: expired, reference: 'expired', delta: -1, balance_after: 4 },
    ]);
    for (const [id, balance] of [
      [paying, 2],
      [paused, 5],
      [unlimited, 5],
      [expired, 4],
    ] as const) {
      expect(await ledgerTotals(database.db, id)).toMatchObject({ balance, sum: balance });
    }
  });

  it('stays exact under 10,000 concurrent checks over 50 accounts, some running out mid-way', async () => {
    const CHECKS = 10_000;
    const ACCOUNTS = 50;
    // Every fifth account can pay for only part of its 200 checks; the others for all of them.
    const granted = Array.from({ length: ACCOUNTS }, (_, i) => (i % 5 === 0 ? 40 + i : 1_000));
    const ids = await Promise.all(granted.map((credits, i) => account(100 + i, credits)));
    const pausedId = ids[1]!;
    const unlimitedId = ids[2]!;
    await database.db
      .updateTable('profiles')
      .set({ plan_status: 'paused' })
      .where('id', '=', pausedId)
      .execute();
    await database.db
      .updateTable('profiles')
      .set({ plan_reference: UNLIMITED_PLAN_REFERENCES[0] })
      .where('id', '=', unlimitedId)
      .execute();
    // Two chargers on one database, as two processes; mostly 1 credit, some 2, some cached (0).
    const chargers = [new CheckCharger(database.db), new CheckCharger(database.db)];
    const checks = Array.from({ length: CHECKS }, (_, i) => ({
      profileId: ids[(i * 7) % ACCOUNTS]!,
      cost: i % 13 === 0 ? 2 : i % 17 === 0 ? 0 : 1,
      reference: `check-${i}`,
    }));
    const outcomes = await Promise.allSettled(
      checks.map((check, i) => chargers[i % 2]!.charge(check.profileId, check.cost, check.reference)),
    );

    const entries = await database.db
      .selectFrom('credit_ledger')
      .select(['profile_id', 'reference', 'delta', 'balance_after'])
      .where('kind', '=', 'check')
      .orderBy('id')
      .execute();
    const entryOf = new Map(entries.map((entry) => [entry.reference, entry]));
    expect(entryOf.size).toBe(entries.length);
    const spent = new Map<string, number>();
    let paid = 0;
    let refused = 0;
    outcomes.forEach((outcome, i) => {
      const check = checks[i]!;
      const entry = entryOf.get(check.reference);
      if (outcome.status === 'rejected') {
        // A 402 (or a paused plan's 403) charged nothing.
        const code = (outcome.reason as ApiError).code;
        expect(code).toBe(check.profileId === pausedId ? 'plan_paused' : 'insufficient_credits');
        expect(entry).toBeUndefined();
        if (code === 'insufficient_credits') refused++;
        return;
      }
      const charge = outcome.value;
      if (charge.unlimited || charge.deducted === 0) {
        expect(entry).toBeUndefined();
        return;
      }
      // A 200 answer charged exactly once, with the balance it reported.
      paid++;
      expect(entry).toEqual({
        profile_id: check.profileId,
        reference: check.reference,
        delta: -check.cost,
        balance_after: charge.remaining,
      });
      spent.set(check.profileId, (spent.get(check.profileId) ?? 0) + check.cost);
    });
    expect(entries).toHaveLength(paid);
    expect(refused).toBeGreaterThan(0);
    for (const [i, id] of ids.entries()) {
      const expected =
        id === pausedId || id === unlimitedId ? granted[i]! : granted[i]! - (spent.get(id) ?? 0);
      expect(await ledgerTotals(database.db, id)).toMatchObject({ balance: expected, sum: expected });
      // Each account's entries, in order, step down from the grant by their own cost.
      let balance = granted[i]!;
      for (const entry of entries.filter((e) => e.profile_id === id)) {
        balance += entry.delta;
        expect(entry.balance_after).toBe(balance);
      }
    }
  }, 60_000);

  it.runIf(kind === 'postgres')(
    'charges while another transaction inserts rows naming the account (its foreign key lock)',
    async () => {
      const first = await account(200, 10);
      const second = await account(201, 10);
      // The phone log's multi-row insert takes its foreign keys' locks in its rows' order, and holds
      // them to its commit: the charge must neither wait for them nor deadlock with them.
      const other = await open2();
      try {
        await other.db.transaction().execute(async (trx) => {
          for (const id of [second, first]) {
            await trx.selectFrom('profiles').select('id').where('id', '=', id).forKeyShare().execute();
          }
          const charger = new CheckCharger(database.db);
          const charges = await Promise.all([charger.charge(first, 1, 'f'), charger.charge(second, 1, 's')]);
          expect(charges).toEqual([
            { unlimited: false, deducted: 1, remaining: 9 },
            { unlimited: false, deducted: 1, remaining: 9 },
          ]);
        });
      } finally {
        await other.close();
      }
    },
  );
});
