import { CreatedExistingFileSchema, FileListSchema, FileViewSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

let t: TestApp;
let accounts = 0;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

/** A new account with no credits at all: storing an existing file costs none. */
async function account() {
  accounts++;
  const { id } = await ensureProfile(t.database.db, {
    sub: `existing-${accounts}`,
    email: `existing${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  const { api_key } = await rotateApiKey(t.database.db, id);
  return { profileId: id, headers: { 'x-api-key': api_key } as Headers };
}

async function create(headers: Headers, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/files/existing', headers, payload: body });
  return { status: res.statusCode, body: res.json() };
}

async function uploadAndSubmit(headers: Headers, csv: string, columns: Record<string, unknown>) {
  const created = await create(headers, { file_name: 'scrubbed.csv', ...columns });
  expect(created.status).toBe(201);
  const job = CreatedExistingFileSchema.parse(created.body);
  const url = new URL(job.upload_url!);
  const put = await t.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: { 'content-type': 'text/csv' },
    payload: csv,
  });
  expect(put.statusCode).toBe(200);
  const res = await t.app.inject({ method: 'POST', url: `/files/existing/${job.job_id}/submit`, headers });
  return { job, status: res.statusCode, body: res.json() };
}

const SCRUBBED = [
  'Name,Phone,Type,Do Not Call',
  'Ann,(201) 234-5678,Mobile,0',
  'Bob,202-333-4444,landline,1',
  'Cid,800-555-1234,toll free,0',
].join('\n');

describe('Upload Existing Files', () => {
  it('stores a checked file as a completed Direct DB file, charging nothing, listed and downloadable', async () => {
    const { profileId, headers } = await account();
    const { status, body } = await uploadAndSubmit(headers, SCRUBBED, {
      phone_col: 'Phone',
      line_type_col: 'Type',
      dnc_col: 'Do Not Call',
    });
    expect(status).toBe(200);
    const file = FileViewSchema.parse(body);
    expect(file).toMatchObject({
      status: 'completed',
      file_method: 'upload',
      total_records: 3,
      credits_charged: 0,
      line_types: { mobile: 1, landline: 1, toll_free: 1 },
      dnc_status: { clean: 2, dnc: 1 },
    });
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(0);

    const list = FileListSchema.parse((await t.app.inject({ method: 'GET', url: '/files', headers })).json());
    expect(list.files.map((f) => [f.file_reference, f.file_method])).toEqual([
      [file.file_reference, 'upload'],
    ]);

    const clean = await t.app.inject({ method: 'GET', url: `/files/${file.file_reference}/result?dnc=0` });
    expect(clean.body.trim().split('\n')).toEqual([
      'Name,Phone,Type,Do Not Call,Line Type,DNC',
      'Ann,(201) 234-5678,Mobile,0,mobile,0',
      'Cid,800-555-1234,toll free,0,toll_free,0',
    ]);
  });

  it('refuses a file with unknown line types, naming values and rows, and stores nothing', async () => {
    const { headers } = await account();
    const csv = [
      'Phone,LT',
      '2012345678,mobile',
      '2012345679,fax',
      '2012345670,pager',
      '2012345671,fax',
    ].join('\n');
    const { job, status, body } = await uploadAndSubmit(headers, csv, { phone_col: 0, line_type_col: 'LT' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toContain('3 rows');
    expect(body.error.issues.map((issue: { message: string }) => issue.message)).toEqual([
      '"fax" is not a line type (rows 3, 5)',
      '"pager" is not a line type (row 4)',
    ]);
    const list = (await t.app.inject({ method: 'GET', url: '/files', headers })).json();
    expect(list.total_files_count).toBe(0);
    const file = await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/result` });
    expect(file.statusCode).toBe(409);
  });

  it('stores a small file sent inline at once', async () => {
    const { headers } = await account();
    const { status, body } = await create(headers, {
      file_name: 'inline.csv',
      phone_col: 'Phone',
      line_type_col: 'Type',
      csv_content: 'Phone,Type\n2012345678,VOIP\n',
    });
    expect(status).toBe(201);
    expect(CreatedExistingFileSchema.parse(body).file).toMatchObject({
      status: 'completed',
      total_records: 1,
      line_types: { voip: 1 },
      dnc_status: {},
    });
  });

  it('answers bad input with a clear 4xx and never a 500', async () => {
    const { headers } = await account();
    const missing = await create(headers, {
      file_name: 'x.csv',
      phone_col: 'Phone',
      line_type_col: 'Kind',
      csv_content: 'Phone,Type\n2012345678,mobile\n',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('No "Kind" column');
    const empty = await create(headers, {
      file_name: 'x.csv',
      phone_col: 0,
      line_type_col: 1,
      csv_content: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('csv_empty');
    const noLineType = await create(headers, { file_name: 'x.csv', phone_col: 'Phone' });
    expect(noLineType.status).toBe(400);
    expect(noLineType.body.error.code).toBe('validation_failed');
  });

  it('is refused to a paused plan, and is not a bulk job', async () => {
    const { profileId, headers } = await account();
    const created = await create(headers, { file_name: 'x.csv', phone_col: 'Phone', line_type_col: 'Type' });
    expect(created.status).toBe(201);
    const asBulk = await t.app.inject({
      method: 'POST',
      url: `/bulk/jobs/${created.body.job_id}/submit`,
      headers,
    });
    expect(asBulk.statusCode).toBe(404);
    await t.database.db
      .updateTable('profiles')
      .set({ plan_status: 'paused' })
      .where('id', '=', profileId)
      .execute();
    const paused = await create(headers, { file_name: 'x.csv', phone_col: 'Phone', line_type_col: 'Type' });
    expect(paused.status).toBe(403);
    expect(paused.body.error.code).toBe('plan_paused');
  });
});
