import { request as httpRequest } from 'node:http';
import {
  BulkJobSchema,
  CreatedBulkJobSchema,
  ErrorEnvelopeSchema,
  FileListSchema,
  JOB_ID_HEADER,
  STREAM_CREDITS_RAN_OUT,
  streamStoppedPartWay,
} from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { leadFile, leadRecords, slowly } from '../../test/lead-files.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

describe.each(testDatabases())('POST /bulk/jobs/stream on $kind', (kind) => {
  let t: TestApp;
  let base: string;
  let accounts = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: await kind.open() },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  async function account(credits: number) {
    accounts++;
    const db = t.database.db;
    const { id } = await ensureProfile(db, {
      sub: `stream-${accounts}`,
      email: `stream${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, id);
    return { profileId: id, headers: { 'x-api-key': api_key } };
  }

  const stream = (
    headers: Record<string, string>,
    body: string | Buffer | ReadableStream<Uint8Array>,
    query = 'phone_col=phone',
  ) =>
    fetch(`${base}/bulk/jobs/stream?file_name=leads.csv&${query}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);

  /** A link the service answered, on this test's server (other servers may hold localhost's port on ::1). */
  const here = (link: string) => `${base}${new URL(link).pathname}${new URL(link).search}`;

  async function job(headers: Record<string, string>, jobId: string) {
    const res = await fetch(`${base}/bulk/jobs/${jobId}`, { headers });
    return BulkJobSchema.parse(await res.json());
  }

  async function queued(headers: Record<string, string>, file: Buffer) {
    const created = CreatedBulkJobSchema.parse(
      await (
        await fetch(`${base}/bulk/jobs`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ file_name: 'leads.csv', phone_col: 'phone' }),
        })
      ).json(),
    );
    await fetch(here(created.upload_url!), {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: file,
    });
    await fetch(`${base}/bulk/jobs/${created.job_id}/submit`, { method: 'POST', headers });
    const done = BulkJobSchema.parse(
      await (await fetch(`${base}/bulk/jobs/${created.job_id}?wait=20`, { headers })).json(),
    );
    const result = Buffer.from(await (await fetch(here(done.result_url!))).arrayBuffer());
    return { done, result };
  }

  /**
   * A streamed job cut off part-way: its kept result is, byte for byte, a queued job's result for
   * the records it scrubbed, and it is charged what that job is charged (the rest given back).
   */
  async function expectPartOf(
    done: Awaited<ReturnType<typeof job>>,
    headers: Record<string, string>,
    [rows, seed]: [number, number],
    profileId: string,
    credits: number,
  ) {
    const part = await queued((await account(credits)).headers, leadFile(rows, seed, done.total_rows!));
    expect(part.done.total_rows).toBe(done.total_rows);
    const kept = await fetch(here(done.result_url!), { headers });
    expect(kept.status).toBe(200);
    expect(Buffer.from(await kept.arrayBuffer()).equals(part.result)).toBe(true);
    const paid = (j: typeof done) => j.credits_charged - j.credits_reversed;
    expect(paid(done)).toBe(paid(part.done));
    expect(paid(done)).toBeGreaterThan(0);
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(credits - paid(done));
  }

  it('answers the bytes a queued job gives for the same file, charged the same, and records the job', async () => {
    const file = leadFile(25_000);
    const a = await account(30_000);
    const b = await account(30_000);
    const before = await queued(a.headers, file);
    expect(before.done.status).toBe('completed');

    const res = await stream(b.headers, slowly(file, 2_000, 5));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const jobId = res.headers.get(JOB_ID_HEADER)!;
    const streamed = Buffer.from(await res.arrayBuffer());
    expect(streamed.equals(before.result)).toBe(true);

    const done = await job(b.headers, jobId);
    const same = (j: typeof done) => ({
      status: j.status,
      total_rows: j.total_rows,
      processed_rows: j.processed_rows,
      duplicates: j.duplicates,
      credits_charged: j.credits_charged,
      credits_reversed: j.credits_reversed,
      line_types: j.line_types,
      dnc_status: j.dnc_status,
    });
    expect(same(done)).toEqual(same(before.done));
    expect(done.credits_reversed).toBeGreaterThan(0);
    const balanceA = await ledgerTotals(t.database.db, a.profileId);
    const balanceB = await ledgerTotals(t.database.db, b.profileId);
    expect(balanceB.balance).toBe(balanceA.balance);
    expect(balanceB.sum).toBe(balanceB.balance);

    // Listed with its files: the result again, and the upload byte for byte as sent.
    const files = FileListSchema.parse(await (await fetch(`${base}/files`, { headers: b.headers })).json());
    expect(files.files[0]).toMatchObject({ file_reference: done.file_reference, status: 'completed' });
    const again = Buffer.from(await (await fetch(here(done.result_url!))).arrayBuffer());
    expect(again.equals(streamed)).toBe(true);
    const upload = Buffer.from(await (await fetch(here(done.uploaded_file!))).arrayBuffer());
    expect(upload.equals(file)).toBe(true);
  });

  it("gives a UTF-16 file the queued job's bytes too, and keeps the upload as sent", async () => {
    const text = `\uFEFFname;phone\r\n${Array.from({ length: 60 }, (_, i) => `Zoë ${i};(201) 555-${String(1000 + i)}`).join('\r\n')}\r\n`;
    const file = Buffer.from(text, 'utf16le');
    const a = await account(100);
    const b = await account(100);
    const before = await queued(a.headers, file);
    // In pieces of an odd number of bytes: characters are cut in two between them.
    let at = 0;
    const pieces = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= file.length) return controller.close();
        controller.enqueue(file.subarray(at, at + 333));
        at += 333;
      },
    });
    const res = await stream(b.headers, pieces);
    expect(res.status).toBe(200);
    const streamed = Buffer.from(await res.arrayBuffer());
    expect(streamed.toString('utf8')).toMatch(/^\uFEFFname;phone;Line Type;DNC\r\nZoë 0;/);
    expect(streamed.equals(before.result)).toBe(true);
    const done = await job(b.headers, res.headers.get(JOB_ID_HEADER)!);
    const upload = Buffer.from(await (await fetch(here(done.uploaded_file!))).arrayBuffer());
    expect(upload.equals(file)).toBe(true);
  });

  it('sends the first result rows before the whole file has arrived', async () => {
    const { headers } = await account(10_000);
    const file = leadFile(2_000, 7);
    let sent = 0;
    const lines = file.toString('utf8').split('\r\n');
    // The producer waits for the answer's first bytes before it sends the second half.
    let firstRows: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      firstRows = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1) await answered;
        if (sent === 2) return controller.close();
        const half = sent === 0 ? lines.slice(0, 1_000) : lines.slice(1_000);
        sent++;
        controller.enqueue(Buffer.from(sent === 1 ? `${half.join('\r\n')}\r\n` : half.join('\r\n')));
      },
    });
    const res = await stream(headers, body);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(sent).toBe(1);
    expect(Buffer.from(first.value!).toString('utf8')).toMatch(
      /^\uFEFF?name,email,phone,notes,Line Type,DNC\r\n/,
    );
    firstRows();
    while (!(await reader.read()).done);
    const done = await job(headers, res.headers.get(JOB_ID_HEADER)!);
    expect(done).toMatchObject({ status: 'completed', total_rows: 2_000 });
  });

  it('breaks off when the credits run out part-way: a broken transfer; the rows scrubbed are charged and kept, the rest not', async () => {
    const { headers, profileId } = await account(120);
    const file = leadFile(400, 3);
    const res = await stream(headers, slowly(file, 20, 20));
    expect(res.status).toBe(200);
    const jobId = res.headers.get(JOB_ID_HEADER)!;
    const reader = res.body!.getReader();
    await expect(
      (async () => {
        for (;;) {
          if ((await reader.read()).done) return;
        }
      })(),
    ).rejects.toThrow();
    const done = await job(headers, jobId);
    expect(done.status).toBe('failed');
    expect(done.error?.startsWith(STREAM_CREDITS_RAN_OUT)).toBe(true);
    expect(done.error).toBe(streamStoppedPartWay('credits', done.total_rows!));
    expect(done.total_rows).toBeGreaterThan(0);
    expect(done.total_rows).toBeLessThanOrEqual(120);
    await expectPartOf(done, headers, [400, 3], profileId, 120);
  });

  it('scrubs and charges the rows the balance covers when more arrive at once than it can pay for', async () => {
    // Sent whole: the service reads it in chunks of many hundred records, more than 300 credits pay for.
    const { headers, profileId } = await account(300);
    const file = leadFile(3_000, 4);
    const res = await stream(headers, file);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    const done = await job(headers, res.headers.get(JOB_ID_HEADER)!);
    expect(done.error).toBe(streamStoppedPartWay('credits', done.total_rows!));
    expect(done.total_rows).toBeGreaterThan(0);
    expect(done.total_rows).toBeLessThanOrEqual(300);
    await expectPartOf(done, headers, [3_000, 4], profileId, 300);
  });

  it('keeps and charges the rows before a part of the file it cannot read, once rows went out', async () => {
    const { headers, profileId } = await account(10_000);
    const lines = leadRecords(2_000, 11);
    let sent = 0;
    let firstRows: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      firstRows = resolve;
    });
    // The first 1,000 records, then (once rows came back) a quote never closed.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1) await answered;
        if (sent === 2) return controller.close();
        sent++;
        controller.enqueue(
          Buffer.from(
            sent === 1
              ? `\uFEFF${lines.slice(0, 1_001).join('\r\n')}\r\n`
              : 'Ann Lee,ann@x.com,2015550123,"never closed\r\n',
          ),
        );
      },
    });
    const res = await stream(headers, body);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    firstRows();
    await expect(
      (async () => {
        while (!(await reader.read()).done);
      })(),
    ).rejects.toThrow();
    const done = await job(headers, res.headers.get(JOB_ID_HEADER)!);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(
      /^The file could not be read after [\d,]+ records \(.*quote.*\): those were scrubbed and charged/i,
    );
    expect(done.total_rows).toBeGreaterThan(0);
    expect(done.total_rows).toBeLessThanOrEqual(1_000);
    await expectPartOf(done, headers, [2_000, 11], profileId, 10_000);
  });

  it('runs two streams at once on a balance that pays for both with room for their blocks ahead', async () => {
    // 800 records in all: each stream holds at most about its own records again ahead, and never
    // more than half of what is left (a first block of 10,000 used to take the whole balance).
    const { headers, profileId } = await account(2_000);
    const [first, second] = await Promise.all([
      stream(headers, slowly(leadFile(400, 8), 50, 10)),
      stream(headers, slowly(leadFile(400, 9), 50, 10)),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await Promise.all([first.arrayBuffer(), second.arrayBuffer()]);
    const jobs = await Promise.all(
      [first, second].map((res) => job(headers, res.headers.get(JOB_ID_HEADER)!)),
    );
    expect(jobs.map((done) => done.status)).toEqual(['completed', 'completed']);
    const paid = jobs.reduce((sum, done) => sum + done.credits_charged - done.credits_reversed, 0);
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(2_000 - paid);
  });

  it('refuses with 402 before any row when the account has no credits, and charges nothing', async () => {
    const { headers, profileId } = await account(0);
    const res = await stream(headers, leadFile(50));
    expect(res.status).toBe(402);
    expect(ErrorEnvelopeSchema.parse(await res.json()).error.code).toBe('insufficient_credits');
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(0);
  });

  it('keeps and charges only the rows it scrubbed when the connection drops mid-way', async () => {
    const { headers, profileId } = await account(50_000);
    const file = leadFile(20_000, 5);
    const url = new URL(`${base}/bulk/jobs/stream?phone_col=phone&file_name=leads.csv`);
    const jobId = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.once('data', () => {
          // Rows came back: the client goes away with half its file sent.
          resolve(res.headers[JOB_ID_HEADER] as string);
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write(file.subarray(0, file.length / 2));
    });
    let done = await job(headers, jobId);
    for (let i = 0; i < 100 && done.status === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = await job(headers, jobId);
    }
    expect(done.status).toBe('failed');
    expect(done.error).toBe(streamStoppedPartWay('connection', done.total_rows!));
    expect(done.total_rows).toBeGreaterThan(0);
    expect(done.total_rows).toBeLessThan(20_000);
    await expectPartOf(done, headers, [20_000, 5], profileId, 50_000);
    // Only part of the file arrived: it is not kept as the upload.
    const upload = await fetch(`${base}/files/${done.file_reference}/upload`);
    expect(upload.status).toBe(404);
  });

  it('refuses a file it cannot scrub, a body that is not CSV and a missing phone column, before any row', async () => {
    const { headers, profileId } = await account(100);
    const noColumn = await stream(headers, 'name,phone\nAnn,2015550123\n', 'phone_col=mobile');
    expect(noColumn.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(await noColumn.json()).error.message).toMatch(/mobile/);
    const empty = await stream(headers, '');
    expect(empty.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(await empty.json()).error.code).toBe('csv_empty');
    const json = await fetch(`${base}/bulk/jobs/stream?phone_col=phone`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const neither = await stream(headers, 'phone\n2015550123\n', '');
    expect(neither.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(await neither.json()).error.message).toMatch(
      /phone_col .* or phone_index/,
    );
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(100);
  });

  it('takes an empty header_row= as absent (a header row), never as 0', async () => {
    const { headers } = await account(100);
    const res = await stream(headers, 'phone,name\n2015550123,Ann\n', 'phone_index=0&header_row=');
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^phone,name,/);
    expect(lines[0]).not.toMatch(/Column 1/);
  });
});
