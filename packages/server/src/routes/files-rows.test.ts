import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BulkJobSchema, CreatedBulkJobSchema, ResultRowsPageSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

const LEADS = [
  'Full Name,E-mail,Phone',
  'Ann Lee,ann@example.com,(201) 234-5678',
  'Bob Ray,bob@example.com,202-333-4444',
  'Cid Moe,cid@example.com,800-555-1234',
  'Dee Fox,dee@example.com,123-456-7890',
].join('\r\n');

/**
 * Issue 26: a bulk result is reviewed row by row in the phone log, a page at a time read on the
 * service from the stored result, with the mapped name and e-mail beside each number.
 */
describe.each(testDatabases())('a result reviewed row by row on $kind', (database: TestDatabase) => {
  let t: TestApp;
  let headers: Record<string, string>;
  let reference: string;
  const dir = mkdtempSync(join(tmpdir(), 'scrub-rows-'));

  beforeAll(async () => {
    t = await createTestApp(
      { dataDir: dir, blobStore: { kind: 'local', dir: join(dir, 'files') } },
      { database: await database.open() },
    );
    const { id } = await ensureProfile(t.database.db, {
      sub: 'rows-1',
      email: 'rows@example.com',
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 20, kind: 'grant' });
    headers = { 'x-api-key': (await rotateApiKey(t.database.db, id)).api_key };
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: {
        file_name: 'leads.csv',
        phone_col: 'Phone',
        mapping: { full_name: 'Full Name', email: 'E-mail' },
        csv_content: LEADS,
      },
    });
    const job = CreatedBulkJobSchema.parse(created.json());
    reference = job.file_reference;
    for (let i = 0; i < 200; i++) {
      const done = BulkJobSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}`, headers })).json(),
      );
      if (done.status === 'completed') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job never completed');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = async (query: string) => {
    const answer = await t.app.inject({ method: 'GET', url: `/files/${reference}/rows?${query}` });
    expect(answer.statusCode).toBe(200);
    return ResultRowsPageSchema.parse(answer.json());
  };

  it('answers a page of rows with where the number, its answer and the mapped fields are', async () => {
    const page = await rows('page=2&per_page=3');
    expect(page.columns).toEqual(['Full Name', 'E-mail', 'Phone', 'Line Type', 'DNC']);
    expect(page).toMatchObject({ total_rows: 4, total_pages: 2, page: 2, phone_column: 2 });
    expect(page.mapped).toEqual({ full_name: 0, email: 1 });
    expect(page.rows).toEqual([
      { row: 4, cells: ['Dee Fox', 'dee@example.com', '123-456-7890', 'invalid', ''] },
    ]);
  });

  it('filters on the line type and searches a name, an e-mail or a number', async () => {
    const tollFree = await rows('line_type=toll_free');
    expect(tollFree.rows.map((row) => row.cells[0])).toEqual(['Cid Moe']);
    expect((await rows('search=bob%40')).rows.map((row) => row.row)).toEqual([2]);
    expect((await rows('search=ann%20LEE')).rows.map((row) => row.row)).toEqual([1]);
    expect((await rows('search=2012345678')).rows.map((row) => row.row)).toEqual([1]);
  });

  it('names the mapped columns with the standard headers when the job asks it, the cells as sent', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: {
        file_name: 'named.csv',
        phone_col: 'Phone',
        mapping: { full_name: 'Full Name', email: 'e-mail' },
        mapped_headers: true,
        csv_content: LEADS,
      },
    });
    const job = CreatedBulkJobSchema.parse(created.json());
    expect(job.mapped_headers).toBe(true);
    let done = job;
    for (let i = 0; i < 200 && done.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = BulkJobSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}`, headers })).json(),
      ) as typeof job;
    }
    const result = await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/result` });
    const lines = result.body.split('\r\n');
    expect(lines[0]).toBe('Full Name,Email,Phone,Line Type,DNC');
    expect(lines[1]).toMatch(/^Ann Lee,ann@example\.com,\(201\) 234-5678,/);
    const page = ResultRowsPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/rows` })).json(),
    );
    expect(page.columns.slice(0, 2)).toEqual(['Full Name', 'Email']);
    expect(page.rows).toHaveLength(4);
    // Without the option, the file's own headers.
    expect((await rows('page=1')).columns[1]).toBe('E-mail');
  });

  it('answers an unknown file and a bad page size as the contract says', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/files/nope/rows' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('file_not_found');
    const tooMany = await t.app.inject({ method: 'GET', url: `/files/${reference}/rows?per_page=201` });
    expect(tooMany.statusCode).toBe(400);
  });
});
