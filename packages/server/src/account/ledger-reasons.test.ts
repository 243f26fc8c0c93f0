import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import * as ledgerReasons from '../storage/migrations/0030-ledger-reasons.js';
import { applyLedgerEntry } from './ledger.js';
import { ensureProfile } from './profiles.js';

/** Migration 0030: give-backs made before it get a reason where their note says it, else `unspecified`. */
describe.each(testDatabases())('the give-backs recorded before reasons on $kind', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await kind.open();
    await migrateToLatest(database.db);
  }, 60_000);
  afterAll(() => database?.close());

  it('reads failed and cut-off give-backs from their notes, and leaves the old mixed ones unspecified', async () => {
    const { db } = database;
    const { id } = await ensureProfile(db, {
      sub: 'old-ledger',
      email: 'old@example.com',
      name: '',
      role: 'User',
    });
    // The ledger as it was before 0030: no reason column.
    await ledgerReasons.down(db as unknown as Kysely<unknown>);
    const entries: [number, string, string | null][] = [
      [100, 'grant', null],
      [-30, 'bulk_charge', '30 records in a.csv'],
      [5, 'reversal', 'duplicates and invalid numbers are not charged'],
      [10, 'reversal', 'job failed: The phone column "Phone" is not in the file.'],
      [2, 'reversal', 'reserved for records the stream did not bring'],
    ];
    let balance = 0;
    for (const [delta, entryKind, note] of entries) {
      balance += delta;
      await db
        .insertInto('credit_ledger')
        .values({ profile_id: id, delta, balance_after: balance, kind: entryKind as 'grant', note } as never)
        .execute();
    }
    await ledgerReasons.up(db as unknown as Kysely<unknown>);
    const rows = await db
      .selectFrom('credit_ledger')
      .select(['kind', 'reason'])
      .where('profile_id', '=', id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { kind: 'grant', reason: null },
      { kind: 'bulk_charge', reason: null },
      { kind: 'reversal', reason: 'unspecified' },
      { kind: 'reversal', reason: 'failed_or_cut' },
      { kind: 'reversal', reason: 'failed_or_cut' },
    ]);
    // New entries carry their reason; a reason outside the list is refused.
    await applyLedgerEntry(db, { profileId: id, delta: 1, kind: 'reversal', reason: 'duplicates' });
    await expect(
      applyLedgerEntry(db, { profileId: id, delta: 1, kind: 'reversal', reason: 'whim' as 'duplicates' }),
    ).rejects.toThrow();
  });
});
