import { BulkJobSchema, CreatedBulkJobSchema, FileListSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

const LEADS = [
  'Name,Phone',
  'Ann,(201) 234-5678',
  'Bob,202-333-4444',
  'Cid,800-555-1234',
  'Dee,123-456-7890',
].join('\r\n');

/**
 * Issue 27: calling windows had no filter. A result scrubbed with the `callable_now` column is
 * filtered on it (`callable_now=1|0`) in downloads, file links and mails, on PGlite and PostgreSQL;
 * a result without the column refuses the filter rather than ignore it.
 */
describe.each(testDatabases())('the calling-window filter on $kind', (database: TestDatabase) => {
  let t: TestApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: await database.open() },
    );
    const { id } = await ensureProfile(t.database.db, {
      sub: 'window-1',
      email: 'window@example.com',
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 20, kind: 'grant' });
    headers = { 'x-api-key': (await rotateApiKey(t.database.db, id)).api_key };
  }, 60_000);
  afterAll(() => t?.close());

  async function scrubbed(fileName: string, columns: string[]) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: fileName, phone_col: 'Phone', columns },
    });
    const job = CreatedBulkJobSchema.parse(created.json());
    const url = new URL(job.upload_url!);
    const put = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'text/csv' },
      payload: LEADS,
    });
    expect(put.statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: `/bulk/jobs/${job.job_id}/submit`, headers });
    for (let i = 0; i < 200; i++) {
      const done = BulkJobSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}`, headers })).json(),
      );
      if (done.status === 'completed') return done;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job never completed');
  }
  const names = (body: string) =>
    body
      .trim()
      .split(/\r\n/)
      .slice(1)
      .map((row) => row.split(',')[0]);

  it('keeps the rows inside or outside the window; neither has a number whose window cannot be told', async () => {
    const job = await scrubbed('window.csv', ['callable_now']);
    const result = new URL(job.result_url!).pathname;
    const inside = await t.app.inject({ method: 'GET', url: `${result}?callable_now=1` });
    const outside = await t.app.inject({ method: 'GET', url: `${result}?callable_now=0` });
    expect([inside.statusCode, outside.statusCode]).toEqual([200, 200]);
    expect([...names(inside.body), ...names(outside.body)].sort()).toEqual(['Ann', 'Bob']);
    const all = await t.app.inject({ method: 'GET', url: `${result}?callable_now=all` });
    expect(names(all.body)).toEqual(['Ann', 'Bob', 'Cid', 'Dee']);

    const file = (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}` })).json();
    expect(file.columns_evaluated_at).toBe(job.columns_evaluated_at);
    expect(file.columns_evaluated_at).not.toBeNull();
  });

  it('refuses the filter on a result without the column, and leaves it off that file’s links', async () => {
    const plain = await scrubbed('plain.csv', []);
    const refused = await t.app.inject({
      method: 'GET',
      url: `${new URL(plain.result_url!).pathname}?callable_now=1`,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^This file has no Callable Now column/);
    const mailed = await t.app.inject({
      method: 'POST',
      url: `/files/${plain.file_reference}/email`,
      headers,
      payload: { callable_now: '1' },
    });
    expect(mailed.statusCode).toBe(400);

    const list = FileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/files?callable_now=1&dnc=all', headers })).json(),
    );
    const link = (name: string) => list.files.find((file) => file.file_name === name)?.file_url;
    expect(link('window.csv')).toMatch(/\/result\?callable_now=1$/);
    expect(link('plain.csv')).toMatch(/\/result$/);
    expect(list.files.find((file) => file.file_name === 'plain.csv')?.columns_evaluated_at).toBeNull();
  });
});
