import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { seedPlans } from '../plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import {
  claimNextJob,
  failStaleStreamJobs,
  getOwnJob,
  requeueOrphanedJobs,
  reserveStreamCredits,
  STREAM_LOST_ERROR,
  settleStreamJob,
  startStreamJob,
} from './job-store.js';

describe.each(testDatabases())('streamed jobs in the job table on $kind', ({ open }) => {
  let database: DatabaseHandle;
  let profileId: string;
  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    ({ id: profileId } = await ensureProfile(database.db, {
      sub: 'streamer',
      email: 'streamer@example.com',
      name: '',
      role: 'User',
    }));
    await applyLedgerEntry(database.db, { profileId, delta: 1_000, kind: 'grant' });
  });
  afterEach(() => database.close());

  const start = () =>
    startStreamJob(
      database.db,
      {
        profileId,
        fileName: 'stdin.csv',
        fileMethod: 'api',
        phoneCol: 'Phone',
        headerRow: true,
        mapping: {},
      },
      'stream:one',
    );

  it('charges a block ahead, at most half of the balance beyond what was counted, and refuses short of that', async () => {
    const job = await start();
    // 1,000 held: the 300 counted, and ahead of them half of the 700 beyond (a block of 800 asked).
    expect(await reserveStreamCredits(database.db, job.id, 'stream:one', 300, 800, 0)).toEqual({
      ok: true,
      credits: 650,
    });
    // 350 left: the 150 counted and half of the 200 beyond.
    expect(await reserveStreamCredits(database.db, job.id, 'stream:one', 150, 800, 300)).toEqual({
      ok: true,
      credits: 900,
    });
    // 100 left: never below what was counted, and then all of it.
    expect(await reserveStreamCredits(database.db, job.id, 'stream:one', 101, 800, 650)).toMatchObject({
      ok: false,
      reason: 'credits',
      available: 100,
    });
    expect(await reserveStreamCredits(database.db, job.id, 'stream:one', 100, 800, 650)).toEqual({
      ok: true,
      credits: 1_000,
    });
    expect((await ledgerTotals(database.db, profileId)).balance).toBe(0);
  });

  it('ends charged as a queued job would be: the unused reservation, duplicates and invalid numbers given back', async () => {
    const job = await start();
    await reserveStreamCredits(database.db, job.id, 'stream:one', 10, 500, 0);
    const done = await settleStreamJob(database.db, job.id, 'stream:one', {
      resultKey: 'results/x.csv',
      uploadSha256: '0'.repeat(64),
      resultSha256: '1'.repeat(64),
      numbersChecked: 7,
      datasetVersions: {},
      dncLists: [],
      totalRows: 10,
      duplicates: 2,
      chargeable: 7,
      lineTypes: {},
      dncStatus: {},
      fileMessage: null,
    });
    expect(done).toMatchObject({
      status: 'completed',
      credits_charged: 10,
      credits_reversed: 3,
      total_rows: 10,
    });
    expect((await ledgerTotals(database.db, profileId)).balance).toBe(1_000 - 7);
  });

  it('is never taken over by a worker; once its request is lost it fails with every credit given back', async () => {
    const job = await start();
    await reserveStreamCredits(database.db, job.id, 'stream:one', 10, 500, 0);
    await database.db
      .updateTable('bulk_jobs')
      .set({ heartbeat_at: sql<Date>`now() - interval '1 hour'` })
      .where('id', '=', job.id)
      .execute();
    expect(await claimNextJob(database.db, 'worker-1', 30)).toBeUndefined();
    expect(await failStaleStreamJobs(database.db, 120)).toBe(1);
    const failed = await getOwnJob(database.db, profileId, job.id);
    expect(failed).toMatchObject({ status: 'failed', error: STREAM_LOST_ERROR, credits_reversed: 500 });
    expect((await ledgerTotals(database.db, profileId)).balance).toBe(1_000);
  });

  it('fails, not re-queues, a streamed job the embedded database left processing at a restart', async () => {
    const job = await start();
    await requeueOrphanedJobs(database.db);
    expect((await getOwnJob(database.db, profileId, job.id)).status).toBe('failed');
  });
});
