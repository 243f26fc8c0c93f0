import { BulkJobSchema, CreatedBulkJobSchema, FileListSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

let t: TestApp;
let accounts = 0;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } });
});
afterAll(() => t?.close());

async function account(credits: number) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `bulk-${accounts}`,
    email: `bulk${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { profileId: id, headers: { 'x-api-key': api_key } };
}

type Headers = Record<string, string>;

async function create(headers: Headers, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/bulk/jobs', headers, payload: body });
  return { status: res.statusCode, body: res.json() };
}

async function upload(uploadUrl: string, csv: string | Buffer, contentType = 'text/csv') {
  const url = new URL(uploadUrl);
  return t.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: { 'content-type': contentType },
    payload: csv,
  });
}

async function submit(headers: Headers, jobId: string) {
  const res = await t.app.inject({ method: 'POST', url: `/bulk/jobs/${jobId}/submit`, headers });
  return { status: res.statusCode, body: res.json() };
}

async function settled(headers: Headers, jobId: string) {
  for (let i = 0; i < 200; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${jobId}`, headers });
    const job = BulkJobSchema.parse(res.json());
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the job never settled');
}

/** Creates, uploads, submits: the job as submit answers it. */
async function runJob(headers: Headers, csv: string, options: Record<string, unknown> = {}) {
  const created = await create(headers, { file_name: 'leads.csv', phone_col: 'Phone', ...options });
  expect(created.status).toBe(201);
  const job = CreatedBulkJobSchema.parse(created.body);
  expect((await upload(job.upload_url!, csv)).statusCode).toBe(200);
  return { job, submitted: await submit(headers, job.job_id) };
}

const LEADS = [
  'First Name,Last Name,Phone',
  'Ann,Lee,(201) 234-5678',
  'Bob,"Ray, Jr.",201.234.5678',
  'Cid,Moe,800-555-1234',
  'Dee,Fox,123-456-7890',
  'Eve,=cmd,202-333-4444',
].join('\r\n');

describe('bulk jobs over HTTP', () => {
  it('scrubs an uploaded CSV: every row back with Line Type and DNC, charged once per unique valid number', async () => {
    const { headers, profileId } = await account(10);
    const { job, submitted } = await runJob(headers, LEADS);
    expect(job).toMatchObject({ status: 'awaiting_upload', filename: 'leads.csv' });
    expect(job.file_reference).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'queued', total_rows: 5, credits_charged: 5 });

    const done = await settled(headers, job.job_id);
    expect(done).toMatchObject({
      status: 'completed',
      total_rows: 5,
      processed_rows: 5,
      duplicates: 1,
      credits_charged: 5,
      credits_reversed: 2,
    });
    expect(done.line_types).toMatchObject({ toll_free: 1, invalid: 1 });
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 7, sum: 7 });

    const result = await t.app.inject({ method: 'GET', url: new URL(done.result_url!).pathname });
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toMatch(/text\/csv/);
    const lines = result.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('First Name,Last Name,Phone,Line Type,DNC');
    // No DNC list is loaded in this service: checked against nothing, never "clean".
    expect(lines[2]).toMatch(/^Bob,"Ray, Jr.",201\.234\.5678,\w+,unchecked$/);
    expect(lines[3]).toBe('Cid,Moe,800-555-1234,toll_free,unchecked');
    expect(lines[4]).toMatch(/^Dee,Fox,123-456-7890,invalid,/);
    expect(lines[5]).not.toContain(',=cmd,');

    const tollFreeOnly = await t.app.inject({
      method: 'GET',
      url: `${new URL(done.result_url!).pathname}?line_type=toll_free`,
    });
    expect(
      tollFreeOnly.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r\n/),
    ).toEqual(['First Name,Last Name,Phone,Line Type,DNC', 'Cid,Moe,800-555-1234,toll_free,unchecked']);

    const original = await t.app.inject({ method: 'GET', url: new URL(done.uploaded_file!).pathname });
    expect(original.body).toBe(LEADS);

    const list = FileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/files?search=LEADS', headers })).json(),
    );
    expect(list).toMatchObject({ page: 1, total_pages: 1, total_files_count: 1 });
    expect(list.files[0]).toMatchObject({
      file_reference: job.file_reference,
      status: 'completed',
      total_records: 5,
      duplicates: 1,
    });
    const page = (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}` })).json();
    expect(page).toMatchObject({ file_name: 'leads.csv', credits_reversed: 2, file_method: 'api' });

    const mail = await t.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('kind', '=', 'file_ready')
      .execute();
    expect(mail.map((m) => m.to_address)).toContain(`bulk${accounts}@example.com`);
  });

  it('adds Time Zone and Callable Now when the job asks for them, and says when they were evaluated', async () => {
    const { headers } = await account(10);
    const { job } = await runJob(headers, LEADS, { columns: ['timezone', 'callable_now'] });
    expect(job).toMatchObject({ columns: ['timezone', 'callable_now'], columns_evaluated_at: null });

    const done = await settled(headers, job.job_id);
    expect(done.status).toBe('completed');
    const evaluatedAt = Date.parse(done.columns_evaluated_at ?? '');
    expect(evaluatedAt).toBeLessThanOrEqual(Date.parse(done.completed_at ?? ''));
    const result = await t.app.inject({ method: 'GET', url: new URL(done.result_url!).pathname });
    const lines = result.body.trim().split(/\r\n/);
    expect(lines[0]).toBe('First Name,Last Name,Phone,Line Type,DNC,Time Zone,Callable Now');
    expect(lines[1]).toMatch(/^Ann,Lee,\(201\) 234-5678,\w+,unchecked,America\/New_York,[01]$/);
    expect(lines[3]).toBe('Cid,Moe,800-555-1234,toll_free,unchecked,,');
    expect(lines[4]).toMatch(/^Dee,Fox,123-456-7890,invalid,,,$/);

    const refused = await create(headers, { file_name: 'x.csv', phone_col: 'Phone', columns: ['weather'] });
    expect(refused.status).toBe(400);
  });

  it('adds Line Type Source when the job asks for it: sample data says sample, toll free the numbering plan', async () => {
    const { headers } = await account(10);
    const { job } = await runJob(headers, LEADS, { columns: ['line_type_source'] });
    expect(job).toMatchObject({ columns: ['line_type_source'] });
    const done = await settled(headers, job.job_id);
    const result = await t.app.inject({ method: 'GET', url: new URL(done.result_url!).pathname });
    const lines = result.body.trim().split(/\r\n/);
    expect(lines[0]).toBe('First Name,Last Name,Phone,Line Type,DNC,Line Type Source');
    expect(lines[1]).toMatch(/^Ann,Lee,\(201\) 234-5678,\w+,unchecked,sample$/);
    expect(lines[3]).toBe('Cid,Moe,800-555-1234,toll_free,unchecked,numbering_plan');
    expect(lines[4]).toBe('Dee,Fox,123-456-7890,invalid,,');
  });

  it('gives upload URLs and stored files random names that do not lead to the file reference', async () => {
    const { headers } = await account(10);
    const { job, submitted } = await runJob(headers, LEADS);
    expect(submitted.status).toBe(200);
    await settled(headers, job.job_id);
    const row = await t.database.db
      .selectFrom('bulk_jobs')
      .select(['upload_key', 'result_key'])
      .where('file_reference', '=', job.file_reference)
      .executeTakeFirstOrThrow();
    const parts = [job.file_reference, job.job_id, job.file_reference.slice(0, 12)];
    for (const seen of [job.upload_url ?? '', row.upload_key, row.result_key ?? '']) {
      expect(seen).not.toBe('');
      for (const part of parts) expect(seen).not.toContain(part);
    }
    const second = CreatedBulkJobSchema.parse(
      (await create(headers, { file_name: 'b.csv', phone_col: 'Phone' })).body,
    );
    expect(new URL(second.upload_url!).pathname).not.toBe(new URL(job.upload_url!).pathname);
  });

  it('takes an upload over a real connection, not only through inject', async () => {
    const { headers } = await account(10);
    const created = CreatedBulkJobSchema.parse(
      (await create(headers, { file_name: 'socket.csv', phone_col: 'Phone' })).body,
    );
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = new URL(created.upload_url!);
    const res = await fetch(`${address}${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: LEADS,
    });
    expect(res.status).toBe(200);
    expect((await submit(headers, created.job_id)).body).toMatchObject({ status: 'queued', total_rows: 5 });
  });

  it('takes a small file inline and queues it at once', async () => {
    const { headers } = await account(10);
    const created = await create(headers, {
      file_name: 'inline.csv',
      phone_col: 0,
      header_row: 0,
      csv_content: '2012345678\n2012345679\n',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'queued', total_rows: 2, upload_url: null });
    expect(await settled(headers, created.body.job_id)).toMatchObject({
      status: 'completed',
      credits_charged: 2,
      credits_reversed: 0,
    });
  });

  it("takes the seed's wire shape: filename and flat *_col fields, as aliases of file_name and mapping", async () => {
    const { headers } = await account(10);
    const created = await create(headers, {
      filename: 'seed.csv',
      phone_col: 'Phone',
      first_name_col: 'First',
      email_col: 2,
      csv_content: 'Phone,First,Email\n2012345678,Ann,ann@example.com\n',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ filename: 'seed.csv', status: 'queued' });
    const row = await t.database.db
      .selectFrom('bulk_jobs')
      .select(['file_name', 'mapping'])
      .where('id', '=', created.body.job_id)
      .executeTakeFirstOrThrow();
    const mapping = typeof row.mapping === 'string' ? JSON.parse(row.mapping) : row.mapping;
    expect({ file_name: row.file_name, mapping }).toEqual({
      file_name: 'seed.csv',
      mapping: { first_name: 'First', email: 2 },
    });
    const clash = await create(headers, { file_name: 'a.csv', filename: 'b.csv', phone_col: 0 });
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toMatch(/filename is an alias of file_name/);
    const neither = await create(headers, { phone_col: 0 });
    expect(neither.body.error.message).toMatch(/file_name is required/);
  });

  it('refuses one column mapped to two fields (the phone column included) with a 400 naming them', async () => {
    const { headers } = await account(10);
    const twice = await create(headers, {
      file_name: 'twice.csv',
      phone_col: 'Phone',
      mapping: { first_name: 'Name', full_name: 'name' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(
      /column "name" is already mapped to first_name: a column maps to one field/,
    );
    const phone = await create(headers, { file_name: 'p.csv', phone_col: 0, email_col: 0 });
    expect(phone.status).toBe(400);
    expect(phone.body.error.message).toMatch(/column 0 is already mapped to phone_col/);
  });

  it('GET /files honours per_page, an alias of limit', async () => {
    const { headers } = await account(10);
    for (const name of ['one.csv', 'two.csv']) {
      await create(headers, { file_name: name, phone_col: 0, header_row: 0, csv_content: '2012345678\n' });
    }
    const page = (await t.app.inject({ method: 'GET', url: '/files?per_page=1', headers })).json();
    expect(page).toMatchObject({ total_files_count: 2, total_pages: 2 });
    expect(page.files).toHaveLength(1);
    const both = await t.app.inject({ method: 'GET', url: '/files?per_page=1&limit=2', headers });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.message).toMatch(/per_page is an alias of limit/);
  });

  it('quotes an uploaded job before it is charged: records, unique numbers, credits; charges nothing', async () => {
    const { headers, profileId } = await account(3);
    const created = CreatedBulkJobSchema.parse(
      (await create(headers, { file_name: 'q.csv', phone_col: 'Phone' })).body,
    );
    const quoteOf = async () => {
      const res = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${created.job_id}/quote`, headers });
      return { status: res.statusCode, body: res.json() };
    };
    expect((await quoteOf()).status).toBe(409);
    expect((await upload(created.upload_url!, LEADS)).statusCode).toBe(200);
    const quote = await quoteOf();
    expect(quote.body).toEqual({
      job_id: created.job_id,
      records: 5,
      unique_numbers: 3,
      duplicates: 1,
      credits_per_record: 1,
      credits_required: 5,
      credits_available: 3,
      unlimited: false,
      sufficient: false,
      plan_paused: false,
      // A fresh install: no list, and the quote says so before anything is charged.
      dnc_lists: [],
      dnc_notice:
        'No do-not-call list is loaded on this service: every valid number will answer unchecked (dnc: null), never clean.',
    });
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 3, entries: 1 });
    await t.database.db
      .updateTable('profiles')
      .set({ plan_reference: '79541679412214' })
      .where('id', '=', profileId)
      .execute();
    expect((await quoteOf()).body).toMatchObject({ credits_required: 0, unlimited: true, sufficient: true });
    expect((await submit(headers, created.job_id)).body).toMatchObject({
      status: 'queued',
      credits_charged: 0,
    });
    expect((await quoteOf()).status).toBe(409);
  });

  it('refuses a submit the balance cannot cover with 402, and queues nothing', async () => {
    const { headers, profileId } = await account(2);
    const { job, submitted } = await runJob(headers, LEADS);
    expect(submitted.status).toBe(402);
    expect(submitted.body).toMatchObject({ credits_required: 5, credits_available: 2 });
    expect(
      (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}`, headers })).json().status,
    ).toBe('awaiting_upload');
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 2 });
  });

  it.each([
    ['an empty file', '', {}, /^Csv is empty$/, 'csv_empty'],
    ['a header and no rows', 'Name,Phone\r\n', {}, /header/i, 'bad_request'],
    ['no column of that name', 'Name,Tel\r\nAnn,2012345678\r\n', {}, /Phone/, 'bad_request'],
    [
      'a column past the last column',
      'Ann,2012345678\r\n',
      { phone_col: 5, header_row: 0 },
      /column/i,
      'bad_request',
    ],
    [
      'a binary file',
      Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0, 0, 0xff, 0xfe, 0, 1]),
      {},
      /text|CSV/i,
      'bad_request',
    ],
  ])('refuses %s at submit with a 400 that says why, free', async (_, csv, options, message, code) => {
    const { headers, profileId } = await account(10);
    const created = CreatedBulkJobSchema.parse(
      (await create(headers, { file_name: 'bad.csv', phone_col: 'Phone', ...options })).body,
    );
    await upload(created.upload_url!, csv as string);
    const { status, body } = await submit(headers, created.job_id);
    expect(status).toBe(400);
    expect(body.message).toMatch(message);
    expect(body.error.code).toBe(code);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 10 });
  });

  it('refuses a submit before the upload and a reused upload URL; a second submit changes nothing', async () => {
    const { headers, profileId } = await account(10);
    const created = CreatedBulkJobSchema.parse(
      (await create(headers, { file_name: 'a.csv', phone_col: 'Phone' })).body,
    );
    expect((await submit(headers, created.job_id)).status).toBe(409);
    expect((await upload(created.upload_url!, LEADS)).statusCode).toBe(200);
    expect((await upload(created.upload_url!, LEADS)).statusCode).toBe(409);
    const first = await submit(headers, created.job_id);
    expect(first).toMatchObject({ status: 200, body: { credits_charged: 5 } });
    const again = await submit(headers, created.job_id);
    expect(again).toMatchObject({ status: 200, body: { job_id: created.job_id, credits_charged: 5 } });
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 5 });
  });

  it("answers another account's job and unknown references with 404, not 403", async () => {
    const owner = await account(10);
    const stranger = await account(10);
    const created = CreatedBulkJobSchema.parse(
      (await create(owner.headers, { file_name: 'a.csv', phone_col: 'Phone' })).body,
    );
    for (const url of [`/bulk/jobs/${created.job_id}`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: stranger.headers })).statusCode).toBe(404);
    }
    expect((await submit(stranger.headers, created.job_id)).status).toBe(404);
    const missing = await t.app.inject({ method: 'GET', url: '/files/NoSuchReference0000000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('No file found');
  });

  it('answers a NUL character anywhere, and a file name no header can hold, without a 500', async () => {
    const { headers } = await account(10);
    for (const url of ['/files/abc%00def', '/files?search=a%00b']) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/NUL character/);
    }
    const created = await create(headers, {
      file_name: 'Leads – May’s “best”.csv',
      phone_col: 0,
      header_row: 0,
      csv_content: '2012345678\n',
    });
    const done = await settled(headers, created.body.job_id);
    const result = await t.app.inject({ method: 'GET', url: new URL(done.result_url!).pathname });
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-disposition']).toBe(
      `attachment; filename="Leads _ May_s _best_-scrubbed.csv"; filename*=UTF-8''${encodeURIComponent('Leads – May’s “best”-scrubbed.csv').replace("'", '%27')}`,
    );
  });

  it("says 'Results not ready' for a result asked for too early", async () => {
    const { headers } = await account(10);
    const created = CreatedBulkJobSchema.parse(
      (await create(headers, { file_name: 'a.csv', phone_col: 'Phone' })).body,
    );
    const res = await t.app.inject({ method: 'GET', url: `/files/${created.file_reference}/result` });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Results not ready');
  });
});

describe('a process that only answers the API (SCRUB_BULK_WORKER=false)', () => {
  it('queues jobs and leaves them to the processes that run workers', async () => {
    const apiOnly = await createTestApp({
      runBulkWorker: false,
      blobStore: { kind: 'local', dir: `${tempDir()}/files` },
    });
    try {
      const { id } = await ensureProfile(apiOnly.database.db, {
        sub: 'api-only',
        email: 'api@example.com',
        name: '',
        role: 'User',
      });
      await applyLedgerEntry(apiOnly.database.db, { profileId: id, delta: 5, kind: 'grant' });
      const { api_key } = await rotateApiKey(apiOnly.database.db, id);
      const headers = { 'x-api-key': api_key };
      const created = await apiOnly.app.inject({
        method: 'POST',
        url: '/bulk/jobs',
        headers,
        payload: { file_name: 'a.csv', phone_col: 0, header_row: 0, csv_content: '2012345678\n' },
      });
      expect(created.json()).toMatchObject({ status: 'queued' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const job = await apiOnly.app.inject({
        method: 'GET',
        url: `/bulk/jobs/${created.json().job_id}`,
        headers,
      });
      expect(job.json()).toMatchObject({ status: 'queued', processed_rows: 0 });
    } finally {
      await apiOnly.close();
    }
  });
});
