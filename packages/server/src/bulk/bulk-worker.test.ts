import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { Mailer } from '../mail/mailer.js';
import { seedPlans } from '../plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { BulkWorker, type JobProcessor, UnprocessableFile } from './bulk-worker.js';
import { createJob, getOwnJob, type JobOutcome, type JobRow, submitJob } from './job-store.js';

const outcome = (rows: number): JobOutcome => ({
  resultKey: 'results/x.csv',
  uploadSha256: '0'.repeat(64),
  resultSha256: '1'.repeat(64),
  numbersChecked: 0,
  datasetVersions: {},
  dncLists: [],
  totalRows: rows,
  duplicates: 0,
  chargeable: rows,
  lineTypes: { mobile: rows },
  dncStatus: { clean: rows },
  fileMessage: null,
});

describe('the bulk worker', () => {
  let database: DatabaseHandle;
  let profileId: string;
  let worker: BulkWorker | undefined;

  beforeEach(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: null });
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    profileId = (
      await ensureProfile(database.db, { sub: 'w', email: 'w@example.com', name: null, role: 'User' })
    ).id;
    await applyLedgerEntry(database.db, { profileId, delta: 100, kind: 'grant' });
  });
  afterEach(async () => {
    await worker?.stop();
    await database.close();
  });

  const start = (processor: Partial<JobProcessor>) => {
    const full: JobProcessor = {
      count: async () => 0,
      quote: async () => ({ records: 0, uniqueNumbers: 0, duplicates: 0, dncLists: [] }),
      process: async () => outcome(0),
      ...processor,
    };
    worker = new BulkWorker({
      db: database.db,
      processor: full,
      mailer: new Mailer({ db: database.db, logger: false, from: 'x@example.com', smtpUrl: null }),
      logger: false,
      publicUrl: () => 'http://localhost',
      pollMs: 20,
      beatMs: 20,
    });
    worker.start();
  };

  async function queued(records: number): Promise<JobRow> {
    const job = await createJob(database.db, {
      profileId,
      fileName: 'a.csv',
      fileMethod: 'api',
      phoneCol: 0,
      headerRow: false,
      mapping: {},
    });
    return submitJob(database.db, job, records);
  }

  async function settled(jobId: string): Promise<JobRow> {
    for (let i = 0; i < 200; i++) {
      const job = await getOwnJob(database.db, profileId, jobId);
      if (job.status === 'completed' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the job never settled');
  }

  it('completes a job, gives back what it did not need, and mails the owner', async () => {
    const job = await queued(10);
    start({ process: async () => ({ ...outcome(10), chargeable: 8 }) });
    expect(await settled(job.id)).toMatchObject({ status: 'completed', credits_reversed: 2 });
    expect(await ledgerTotals(database.db, profileId)).toMatchObject({ balance: 92 });
    const mail = await database.db.selectFrom('mail_outbox').select(['to_address', 'subject']).execute();
    expect(mail).toEqual([{ to_address: 'w@example.com', subject: 'Your file a.csv is ready' }]);
  });

  it('fails a file it cannot read with the reason, and gives every credit back', async () => {
    const job = await queued(10);
    start({ process: async () => Promise.reject(new UnprocessableFile('The phone column is gone.')) });
    expect(await settled(job.id)).toMatchObject({
      status: 'failed',
      error: 'The phone column is gone.',
      credits_reversed: 10,
    });
    expect(await ledgerTotals(database.db, profileId)).toMatchObject({ balance: 100 });
  });

  it('fails a job whose file grew after it was paid for, instead of scrubbing the extra rows free', async () => {
    const job = await queued(10);
    start({ process: async () => outcome(1000) });
    const failed = await settled(job.id);
    expect(failed).toMatchObject({ status: 'failed', credits_reversed: 10 });
    expect(failed.error).toMatch(
      /changed after it was submitted: it has 1,000 records, and 10 were paid for/,
    );
  });

  it('gives up on a job after three attempts, with the credits given back', async () => {
    const job = await queued(10);
    await database.db.updateTable('bulk_jobs').set({ attempts: 3 }).where('id', '=', job.id).execute();
    let ran = false;
    start({
      process: async () => {
        ran = true;
        return outcome(10);
      },
    });
    const failed = await settled(job.id);
    expect(failed).toMatchObject({ status: 'failed', credits_reversed: 10 });
    expect(failed.error).toMatch(/3 attempts/);
    expect(ran).toBe(false);
  });

  it('puts a job it was stopped in the middle of back in the queue, charged as it was', async () => {
    const job = await queued(10);
    let begun: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      begun = resolve;
    });
    start({
      process: (_job, _progress, signal) =>
        new Promise((_, reject) => {
          begun();
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    });
    await running;
    expect(await worker!.stop()).toBe(true);
    const left = await getOwnJob(database.db, profileId, job.id);
    expect(left).toMatchObject({ status: 'queued', credits_charged: 10, credits_reversed: 0 });
    // Any worker takes it from the queue and finishes it, as a job left by a process that died.
    start({ process: async () => outcome(10) });
    expect(await settled(job.id)).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('lets a job under way end on its own until the deadline of its stop', async () => {
    const job = await queued(10);
    let finish: () => void = () => {};
    let begun: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      begun = resolve;
    });
    start({
      process: () =>
        new Promise((resolve) => {
          begun();
          finish = () => resolve(outcome(10));
        }),
    });
    await running;
    const deadline = new AbortController();
    const stopped = worker!.stop(deadline.signal);
    finish();
    expect(await stopped).toBe(false);
    expect(await getOwnJob(database.db, profileId, job.id)).toMatchObject({ status: 'completed' });
  });
});
