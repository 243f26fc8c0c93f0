import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { LocalBlobStore } from '../blob-store/local-blob-store.js';
import { Mailer } from '../mail/mailer.js';
import { seedPlans } from '../plans/plan-store.js';
import { ReferenceData } from '../reference-data/reference-data.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import { BulkWorker } from './bulk-worker.js';
import { CsvJobProcessor } from './csv-processor.js';
import { createJob, getOwnJob, type JobRow, submitJob } from './job-store.js';

const ROWS = 60_000;

/**
 * About 9 MB (so the scrub is cut into several parts): a byte-order mark, CRLF, quoted cells
 * holding line breaks and doubled quotes, formula cells, blank and short rows, and every number
 * seen again thousands of rows later (duplicates across parts).
 */
function leads(): Buffer {
  const rows = ['Name,Notes,Phone,Company'];
  for (let i = 0; i < ROWS; i++) {
    const phone = `(201) ${234 + Math.floor((i % 20_000) / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
    if (i % 11 === 0)
      rows.push(`"Lee\r\nAnn","said ""call me""\r\nafter 5pm, weekdays",${phone},=HYPERLINK("x")`);
    else if (i % 97 === 0) rows.push('');
    else if (i % 89 === 0) rows.push(`short ${i}`);
    else
      rows.push(
        `Lead number ${i},"Street ${i}, Apartment ${i % 40}, Newark NJ",${phone},Company ${i % 500} LLC`,
      );
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${rows.join('\r\n')}\r\n`)]);
}

describe.each(testDatabases())('a large job on one thread and on several, on $kind', ({ open }) => {
  let database: DatabaseHandle;
  let files: LocalBlobStore;
  let profileId: string;
  let worker: BulkWorker | undefined;

  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    ({ id: profileId } = await ensureProfile(database.db, {
      sub: 'threads',
      email: 'threads@example.com',
      name: null,
      role: 'User',
    }));
    await applyLedgerEntry(database.db, { profileId, delta: 2 * ROWS, kind: 'grant' });
    files = new LocalBlobStore({ dir: tempDir(), publicUrl: () => 'http://localhost' });
  });
  afterEach(async () => {
    await worker?.stop();
    await database.close();
  });

  /** Runs one job on the file with a processor scrubbing on `threads` threads; the job as it ended. */
  async function run(file: Buffer, threads: number): Promise<JobRow> {
    const processor = new CsvJobProcessor(files, ReferenceData.sample(), [], 64 * 1024, null, {
      threads,
      fromBytes: 0,
    });
    const created = await createJob(database.db, {
      profileId,
      fileName: 'leads.csv',
      fileMethod: 'api',
      phoneCol: 'Phone',
      headerRow: true,
      mapping: {},
      columns: ['timezone'],
    });
    await files.write(created.upload_key, Readable.from([file]), 'text/csv');
    await submitJob(database.db, created, await processor.count(created));
    worker = new BulkWorker({
      db: database.db,
      processor,
      mailer: new Mailer({ db: database.db, logger: false, from: 'x@example.com', smtpUrl: null }),
      logger: false,
      publicUrl: () => 'http://localhost',
      pollMs: 20,
      beatMs: 200,
    });
    worker.start();
    try {
      for (let i = 0; i < 1500; i++) {
        const job = await getOwnJob(database.db, profileId, created.id);
        if (job.status === 'completed' || job.status === 'failed') return job;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the job never settled');
    } finally {
      await worker.stop();
      worker = undefined;
    }
  }

  async function resultOf(job: JobRow): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of (await files.read(job.result_key!))!) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  // Two 9 MB jobs, with threads that load the engine from source: a while on a busy machine.
  it('gives the same result file, counts and credits with threads on as with threads off', {
    timeout: 120_000,
  }, async () => {
    const file = leads();
    const one = await run(file, 1);
    const two = await run(file, 2);
    expect(one.status).toBe('completed');
    const same = (job: JobRow) => ({
      status: job.status,
      total_rows: job.total_rows,
      duplicates: job.duplicates,
      credits_charged: job.credits_charged,
      credits_reversed: job.credits_reversed,
      numbers_checked: job.numbers_checked,
      line_types: job.line_types,
      dnc_status: job.dnc_status,
      file_message: job.file_message,
      upload_sha256: job.upload_sha256,
      result_sha256: job.result_sha256,
    });
    expect(same(two)).toEqual(same(one));
    // 20,000 numbers, each on three rows (less the blank and short ones).
    expect({ duplicates: one.duplicates, numbers_checked: one.numbers_checked }).toEqual({
      duplicates: 38_831,
      numbers_checked: 20_000,
    });
    expect(one.file_message).toMatch(/could not be read/);
    const result = await resultOf(two);
    expect(result.equals(await resultOf(one))).toBe(true);
    expect(
      result.toString().startsWith('\ufeffName,Notes,Phone,Company,Line Type,DNC,Time Zone\r\n"Lee\r\nAnn"'),
    ).toBe(true);
  });
});
