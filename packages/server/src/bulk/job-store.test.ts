import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { isValidKey } from '../blob-store/blob-store.js';
import { ApiError } from '../errors/api-error.js';
import { seedPlans } from '../plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import {
  beat,
  claimNextJob,
  completeJob,
  createJob,
  failJob,
  getOwnJob,
  type JobOutcome,
  newResultKey,
  newUploadKey,
  requeueOrphanedJobs,
  submitJob,
} from './job-store.js';

describe('file names of jobs', () => {
  it('are always valid file keys (1 in 32 base64url names started with "-" and made the store refuse them)', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => (i % 2 ? newUploadKey() : newResultKey()));
    expect(keys.filter((key) => !isValidKey(key))).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

const outcome = (chargeable: number): JobOutcome => ({
  resultKey: 'results/x.csv',
  uploadSha256: '0'.repeat(64),
  resultSha256: '1'.repeat(64),
  numbersChecked: 0,
  datasetVersions: {},
  dncLists: [],
  totalRows: 10,
  duplicates: 2,
  chargeable,
  lineTypes: { mobile: 7, invalid: 1 },
  dncStatus: { clean: 6, dnc: 2 },
  fileMessage: null,
});

describe.each(testDatabases())('bulk jobs and their queue on $kind', ({ open }) => {
  let database: DatabaseHandle;
  let profileId: string;
  let people = 0;
  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    profileId = await person(100);
  });
  afterEach(() => database.close());

  async function person(credits: number): Promise<string> {
    people++;
    const { id } = await ensureProfile(database.db, {
      sub: `bulk-${people}`,
      email: `b${people}@example.com`,
      name: null,
      role: 'User',
    });
    if (credits > 0) await applyLedgerEntry(database.db, { profileId: id, delta: credits, kind: 'grant' });
    return id;
  }

  const newJob = (owner = profileId) =>
    createJob(database.db, {
      profileId: owner,
      fileName: 'leads.csv',
      fileMethod: 'api',
      phoneCol: 'Phone',
      headerRow: true,
      mapping: {},
    });

  it('charges the records at submit and queues the job, once', async () => {
    const job = await newJob();
    expect(job.file_reference).toMatch(/^[0-9A-Za-z]{32}$/);
    const queued = await submitJob(database.db, job, 10);
    expect(queued).toMatchObject({ status: 'queued', total_rows: 10, credits_charged: 10 });
    expect(await ledgerTotals(database.db, profileId)).toMatchObject({ balance: 90, sum: 90 });
    expect(await submitJob(database.db, job, 10)).toMatchObject({
      id: job.id,
      status: 'queued',
      credits_charged: 10,
    });
    expect(await ledgerTotals(database.db, profileId)).toMatchObject({ balance: 90 });
  });

  it('refuses a submit the balance cannot cover, and leaves the job waiting', async () => {
    const poor = await person(5);
    const job = await newJob(poor);
    const refused = await submitJob(database.db, job, 10).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      code: 'insufficient_credits',
      extra: { credits_required: 10, credits_available: 5 },
    });
    expect((await getOwnJob(database.db, poor, job.id)).status).toBe('awaiting_upload');
    expect(await ledgerTotals(database.db, poor)).toMatchObject({ balance: 5 });
  });

  it("answers someone else's job as no such job", async () => {
    const job = await newJob();
    const stranger = await person(0);
    await expect(getOwnJob(database.db, stranger, job.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(getOwnJob(database.db, profileId, 'not-a-uuid')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('gives two workers two different jobs, and nothing more', async () => {
    for (let i = 0; i < 2; i++) await submitJob(database.db, await newJob(), 1);
    const claims = await Promise.all([
      claimNextJob(database.db, 'worker-a', 30),
      claimNextJob(database.db, 'worker-b', 30),
      claimNextJob(database.db, 'worker-c', 30),
    ]);
    const taken = claims.filter((job) => job !== undefined);
    expect(taken).toHaveLength(2);
    expect(new Set(taken.map((job) => job.id)).size).toBe(2);
    expect(taken.map((job) => job.status)).toEqual(['processing', 'processing']);
  });

  it('gives back what a completed job did not need, and everything a failed job took', async () => {
    const first = await submitJob(database.db, await newJob(), 10);
    const second = await submitJob(database.db, await newJob(), 10);
    const a = await claimNextJob(database.db, 'w', 30);
    const b = await claimNextJob(database.db, 'w', 30);
    expect([a?.id, b?.id]).toEqual([first.id, second.id]);
    const done = await completeJob(database.db, first.id, 'w', outcome(7));
    expect(done).toMatchObject({
      status: 'completed',
      credits_charged: 10,
      credits_reversed: 3,
      duplicates: 2,
    });
    expect(done?.line_types).toEqual({ mobile: 7, invalid: 1 });
    const failed = await failJob(database.db, second.id, 'w', 'The phone column "Phone" is not in the file.');
    expect(failed).toMatchObject({
      status: 'failed',
      credits_reversed: 10,
      error: 'The phone column "Phone" is not in the file.',
    });
    // Each give-back says why: the completed job's duplicates and invalid rows, the failed job's all.
    expect(await ledgerTotals(database.db, profileId)).toEqual({ balance: 93, sum: 93, entries: 6 });
    const giveBacks = await database.db
      .selectFrom('credit_ledger')
      .select(['reference', 'delta', 'reason'])
      .where('kind', '=', 'reversal')
      .where('reference', 'in', [first.id, second.id])
      .orderBy('id')
      .execute();
    expect(giveBacks).toEqual([
      { reference: first.id, delta: 2, reason: 'duplicates' },
      { reference: first.id, delta: 1, reason: 'invalid' },
      { reference: second.id, delta: 10, reason: 'failed_or_cut' },
    ]);
    // Settled jobs stay settled: a late second completion or failure changes nothing.
    expect(await completeJob(database.db, first.id, 'w', outcome(0))).toBeUndefined();
    expect(await failJob(database.db, first.id, null, 'late')).toBeUndefined();
    expect(await ledgerTotals(database.db, profileId)).toMatchObject({ balance: 93 });
  });

  it('lets another worker take over a job whose worker stopped beating, and the first one loses it', async () => {
    const job = await submitJob(database.db, await newJob(), 10);
    await claimNextJob(database.db, 'dead', 30);
    expect(await claimNextJob(database.db, 'alive', 30)).toBeUndefined();
    await database.db
      .updateTable('bulk_jobs')
      .set({ heartbeat_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', job.id)
      .execute();
    const taken = await claimNextJob(database.db, 'alive', 30);
    expect(taken).toMatchObject({ id: job.id, worker_id: 'alive', attempts: 2 });
    expect(await beat(database.db, job.id, 'dead', 5)).toBe(false);
    expect(await completeJob(database.db, job.id, 'dead', outcome(10))).toBeUndefined();
    expect(await beat(database.db, job.id, 'alive', 5)).toBe(true);
    expect(await completeJob(database.db, job.id, 'alive', outcome(10))).toMatchObject({
      credits_reversed: 0,
    });
    expect(await ledgerTotals(database.db, profileId)).toMatchObject({ balance: 90 });
  });

  it('puts orphaned jobs back in the queue at start', async () => {
    await submitJob(database.db, await newJob(), 1);
    await claimNextJob(database.db, 'gone', 30);
    expect(await requeueOrphanedJobs(database.db)).toBe(1);
    expect(await claimNextJob(database.db, 'new', 30)).toMatchObject({ worker_id: 'new' });
  });
});
