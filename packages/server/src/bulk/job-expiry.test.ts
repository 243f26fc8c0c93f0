import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { ensureProfile } from '../account/profiles.js';
import { LocalBlobStore } from '../blob-store/local-blob-store.js';
import { ApiError } from '../errors/api-error.js';
import { type DatabaseHandle, migrateToLatest } from '../storage/database.js';
import { JobExpiry } from './job-expiry.js';
import { createJob, getOwnJob } from './job-store.js';

const newJob = (profileId: string) => ({
  profileId,
  fileName: 'leads.csv',
  fileMethod: 'api' as const,
  phoneCol: 'Phone',
  headerRow: true,
  mapping: {},
});

describe.each(testDatabases())('jobs never submitted on $kind', ({ open }) => {
  let database: DatabaseHandle;
  let profileId: string;
  let files: LocalBlobStore;
  beforeEach(async () => {
    database = await open();
    await migrateToLatest(database.db);
    ({ id: profileId } = await ensureProfile(database.db, {
      sub: 'expiry',
      email: 'expiry@example.com',
      name: null,
      role: 'User',
    }));
    files = new LocalBlobStore({ dir: tempDir(), publicUrl: () => 'http://localhost' });
  });
  afterEach(() => database.close());

  /** A job created `hoursAgo`, with its file uploaded or not. */
  async function jobFrom(hoursAgo: number, uploaded: boolean) {
    const job = await createJob(database.db, newJob(profileId));
    await sql`update bulk_jobs set created_at = now() - make_interval(hours => ${hoursAgo}) where id = ${job.id}`.execute(
      database.db,
    );
    if (uploaded) await files.write(job.upload_key, Readable.from(['Phone\n2015550123\n']), 'text/csv');
    return job;
  }

  it('are removed with their file once past the TTL; newer and submitted ones stay', async () => {
    const oldEmpty = await jobFrom(30, false);
    const oldUploaded = await jobFrom(25, true);
    const fresh = await jobFrom(1, true);
    const queued = await jobFrom(48, true);
    await database.db
      .updateTable('bulk_jobs')
      .set({ status: 'queued' })
      .where('id', '=', queued.id)
      .execute();

    const expiry = new JobExpiry({
      db: database.db,
      blobStore: files,
      logger: false,
      ttlSeconds: 86_400,
      everySeconds: 3600,
    });
    await expiry.sweep();

    for (const gone of [oldEmpty, oldUploaded]) {
      await expect(getOwnJob(database.db, profileId, gone.id)).rejects.toThrow(/No bulk job/);
    }
    expect(await files.stat(oldUploaded.upload_key)).toBeNull();
    expect((await getOwnJob(database.db, profileId, fresh.id)).status).toBe('awaiting_upload');
    expect(await files.stat(fresh.upload_key)).not.toBeNull();
    expect((await getOwnJob(database.db, profileId, queued.id)).status).toBe('queued');
    expect(await files.stat(queued.upload_key)).not.toBeNull();
    await expiry.stop();
  });

  it('are limited per account: past the quota a new job is a 409 saying why, until some go', async () => {
    const limits = { maxUnsubmitted: 3, ttlSeconds: 86_400 };
    for (let i = 0; i < 3; i++) await createJob(database.db, newJob(profileId), limits);
    const refused = await createJob(database.db, newJob(profileId), limits).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: 'conflict' });
    expect((refused as Error).message).toMatch(
      /3 bulk jobs created but not submitted.*removed 24 hours after/,
    );
    const { count } = await database.db
      .selectFrom('bulk_jobs')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(3);

    await database.db
      .updateTable('bulk_jobs')
      .set({ status: 'queued' })
      .where('profile_id', '=', profileId)
      .execute();
    expect((await createJob(database.db, newJob(profileId), limits)).status).toBe('awaiting_upload');
  });
});
