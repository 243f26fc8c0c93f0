import { Readable } from 'node:stream';
import { BulkJobSchema, FileListSchema, FileViewSchema } from '@scrub/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { startS3TestServer } from '../../test/s3-test-server.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile, getProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { LocalBlobStore } from '../blob-store/local-blob-store.js';
import { setUpBlobStore } from '../blob-store/setup.js';
import { expireOldFiles, fileRetentionSweep } from '../bulk/file-removal.js';
import { JobExpiry } from '../bulk/job-expiry.js';
import { createJob } from '../bulk/job-store.js';
import { loadConfig } from '../config/config.js';

const DAY = 86_400_000;
const LEADS = 'Name,Phone\nAnn,201-234-0001\nBob,201-555-0100\n';

describe.each(testDatabases())('file retention and deletion on $kind', (kind) => {
  let t: TestApp;
  let filesDir: string;
  let accounts = 0;

  beforeAll(async () => {
    filesDir = `${tempDir()}/files`;
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: filesDir }, fileRetentionDays: 30 },
      { database: await kind.open() },
    );
  });
  afterAll(() => t?.close());

  async function account() {
    accounts++;
    const db = t.database.db;
    const { id } = await ensureProfile(db, {
      sub: `file-removal-${accounts}`,
      email: `file-removal${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: id, delta: 100, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, id);
    return { id, headers: { 'x-api-key': api_key } };
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  async function completedFile(headers: Record<string, string>) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'leads.csv', phone_col: 'Phone', csv_content: LEADS },
    });
    expect(created.statusCode).toBe(201);
    const jobId = created.json().job_id as string;
    const submitted = await t.app.inject({ method: 'POST', url: `/bulk/jobs/${jobId}/submit`, headers });
    expect(submitted.statusCode).toBe(200);
    for (let i = 0; i < 400; i++) {
      const job = BulkJobSchema.parse((await get(`/bulk/jobs/${jobId}`, headers)).json());
      if (job.status === 'completed') return job.file_reference;
      expect(job.status).not.toBe('failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job never completed');
  }

  const view = async (reference: string) => FileViewSchema.parse((await get(`/files/${reference}`)).json());
  const store = () => new LocalBlobStore({ dir: filesDir, publicUrl: () => 'http://127.0.0.1' });

  it('shows when a file expires, and keeps it until then', async () => {
    const { headers } = await account();
    const reference = await completedFile(headers);
    const file = await view(reference);
    expect(Date.parse(file.expires_at ?? '') - Date.parse(file.created_at)).toBe(30 * DAY);
    expect(file.removed_at).toBeNull();
    const [listed] = FileListSchema.parse((await get('/files', headers)).json()).files;
    expect(listed?.expires_at).toBe(file.expires_at);

    expect(await expireOldFiles(t.database.db, store(), 30, new Date(Date.now() + 29 * DAY))).toBe(0);
    expect((await get(`/files/${reference}/result`)).statusCode).toBe(200);
  });

  it('the retention pass deletes the upload and result; downloads then answer 410 saying when and why', async () => {
    const { headers } = await account();
    const reference = await completedFile(headers);
    // Reviewed once: the result's page index is stored beside it, and goes with it.
    expect((await get(`/files/${reference}/rows`)).statusCode).toBe(200);
    const expiry = new JobExpiry({
      db: t.database.db,
      blobStore: store(),
      logger: false,
      ttlSeconds: 365 * 86_400,
      everySeconds: 3600,
      alsoRemove: [fileRetentionSweep(t.database.db, store(), 30)],
    });
    const later = new Date(Date.now() + 31 * DAY);
    await expiry.sweep(later);

    const file = await view(reference);
    expect(file).toMatchObject({ removed_by: 'retention', expires_at: null, status: 'completed' });
    expect(file.removed_at).toBe(later.toISOString());
    for (const path of ['result', 'upload', 'result?dnc=0', 'rows']) {
      const res = await get(`/files/${reference}/${path}`);
      expect(res.statusCode).toBe(410);
      expect(res.json().error.code).toBe('file_expired');
      expect(res.json().message).toContain(`deleted on ${later.toISOString().slice(0, 10)}`);
      expect(res.json().message).toContain('kept for a set number of days');
    }
    const mailed = await t.app.inject({
      method: 'POST',
      url: `/files/${reference}/email`,
      headers,
      payload: {},
    });
    expect(mailed.statusCode).toBe(410);
    // Nothing is left in the store: no file under the directory names the reference's blobs.
    const job = await t.database.db
      .selectFrom('bulk_jobs')
      .select(['upload_key', 'result_key'])
      .where('file_reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(await store().stat(job.upload_key)).toBeNull();
    expect(await store().stat(job.result_key ?? '')).toBeNull();
    expect(await store().stat(`${job.result_key}.rows.json`)).toBeNull();
    // The proof carries no personal data: it outlives the file.
    expect((await get(`/files/${reference}/proof`)).statusCode).toBe(200);
  });

  it('a pass stops at its deadline and leaves the rest to the next', async () => {
    const { headers } = await account();
    const reference = await completedFile(headers);
    const later = new Date(Date.now() + 31 * DAY);
    expect(await expireOldFiles(t.database.db, store(), 30, later, 0)).toBe(0);
    expect((await view(reference)).removed_at).toBeNull();
    expect(await expireOldFiles(t.database.db, store(), 30, later)).toBeGreaterThanOrEqual(1);
    expect((await view(reference)).removed_by).toBe('retention');
  });

  it('the owner deletes a file now; credits stay as they were; others get a 404', async () => {
    const owner = await account();
    const other = await account();
    const reference = await completedFile(owner.headers);
    const before = (await getProfile(t.database.db, owner.id)).credits;

    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/files/${reference}`,
      headers: other.headers,
    });
    expect(refused.statusCode).toBe(404);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/files/${reference}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect(FileViewSchema.parse(deleted.json())).toMatchObject({
      removed_by: 'customer',
      status: 'completed',
    });
    const res = await get(`/files/${reference}/result`);
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toContain('its owner deleted it');
    expect((await getProfile(t.database.db, owner.id)).credits).toBe(before);
    // Asked again: the same answer.
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/files/${reference}`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(200);
  });

  it('a file whose job is still queued cannot be deleted (409)', async () => {
    const { id, headers } = await account();
    const reference = await completedFile(headers);
    await t.database.db
      .updateTable('bulk_jobs')
      .set({ status: 'queued' })
      .where('file_reference', '=', reference)
      .where('profile_id', '=', id)
      .execute();
    const res = await t.app.inject({ method: 'DELETE', url: `/files/${reference}`, headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/being scrubbed/);
    await t.database.db
      .updateTable('bulk_jobs')
      .set({ status: 'completed' })
      .where('file_reference', '=', reference)
      .execute();
  });
});

describe('the retention pass on an S3 store', () => {
  it('deletes the upload and result from the bucket', async () => {
    const s3 = await startS3TestServer();
    vi.stubEnv('AWS_ACCESS_KEY_ID', s3.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', s3.secretAccessKey);
    const config = loadConfig({
      SCRUB_S3_BUCKET: s3.bucket,
      SCRUB_S3_REGION: 'us-east-1',
      SCRUB_S3_ENDPOINT: s3.endpoint,
      SCRUB_S3_FORCE_PATH_STYLE: 'true',
    });
    const app = Fastify();
    const t = await createTestApp({ runBulkWorker: false });
    try {
      const bucket = await setUpBlobStore(app, config, () => 'http://unused.invalid');
      const { id } = await ensureProfile(t.database.db, {
        sub: 'file-removal-s3',
        email: 'file-removal-s3@example.com',
        name: '',
        role: 'User',
      });
      const job = await createJob(t.database.db, {
        profileId: id,
        fileName: 'leads.csv',
        fileMethod: 'api',
        phoneCol: 'Phone',
        headerRow: true,
        mapping: {},
      });
      const resultKey = `${job.upload_key}.result`;
      await t.database.db
        .updateTable('bulk_jobs')
        .set({ status: 'completed', result_key: resultKey })
        .where('id', '=', job.id)
        .execute();
      for (const key of [job.upload_key, resultKey]) {
        await bucket.write(key, Readable.from([Buffer.from('Name,Phone\nAnn,2012340001\n')]), 'text/csv');
        expect(await bucket.stat(key)).not.toBeNull();
      }

      expect(await expireOldFiles(t.database.db, bucket, 30, new Date(Date.now() + 31 * DAY))).toBe(1);
      expect(await bucket.stat(job.upload_key)).toBeNull();
      expect(await bucket.stat(resultKey)).toBeNull();
    } finally {
      await t.close();
      await app.close();
      await s3.close();
      vi.unstubAllEnvs();
    }
  }, 60_000);
});
