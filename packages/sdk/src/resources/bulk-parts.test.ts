import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResumableUpload } from '@scrub/contract';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PayloadTooLargeError, ScrubError } from '../errors.js';
// The Node entry: uploads from a file path are its addition to the browser entry.
import { Scrub } from '../index.js';

const BASE = 'http://scrub.test';
// Another host, as an S3 bucket would be.
const STORE = 'http://bucket.test';
const PART = 10;
const FILE = Buffer.from('Name,Phone\nAda,2015550123\nBob,8005551234\n'); // 41 bytes: 5 parts
const PARTS = Math.ceil(FILE.length / PART);

/** Records the waits instead of sleeping through them. */
class RecordingScrub extends Scrub {
  readonly delays: number[] = [];

  protected override async sleep(ms: number): Promise<void> {
    this.delays.push(ms);
  }
}

const client = () => new RecordingScrub({ baseURL: BASE, apiKey: 'scrub_test_key', maxRetries: 0 });

/** The upload as the service would answer it, holding `received`. */
function upload(received: number[], fields: Partial<ResumableUpload> = {}): ResumableUpload {
  const all = Array.from({ length: PARTS }, (_, i) => i + 1);
  return {
    upload_id: 'up_1',
    job_id: 'job_1',
    size: FILE.length,
    part_size: PART,
    part_count: PARTS,
    bytes_received: received.reduce((sum, n) => sum + Math.min(PART, FILE.length - (n - 1) * PART), 0),
    parts_received: received,
    parts_to_send: all
      .filter((n) => !received.includes(n))
      .map((n) => ({
        part_number: n,
        start: (n - 1) * PART,
        end: Math.min(n * PART, FILE.length),
        url: `${STORE}/parts/${n}?sig=x`,
      })),
    urls_expire_at: '2026-03-01T13:00:00.000Z',
    expires_at: '2026-03-02T12:00:00.000Z',
    completed: false,
    ...fields,
  };
}

/** The store: every part PUT that reached it (number and bytes), answering each by `answer`. */
function store(answer: (part: number) => 'ok' | number = () => 'ok') {
  const puts: { part: number; body: string }[] = [];
  nock(STORE)
    .persist()
    .put(/\/parts\/\d+/)
    .query(true)
    .reply(async (request: Request) => {
      const part = Number(/\/parts\/(\d+)/.exec(request.url)?.[1]);
      const body = await request.text();
      const outcome = answer(part);
      puts.push({ part, body });
      return outcome === 'ok'
        ? [200, '', { etag: '"x"' }]
        : [outcome, { error: { code: 'x', message: 'no' } }];
    });
  return puts;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('bulk.uploadInParts', () => {
  it('sends every part once, completes the upload, and reports progress', async () => {
    const api = nock(BASE)
      .post('/bulk/jobs/job_1/uploads', { size: FILE.length })
      .reply(201, upload([]))
      .get('/bulk/jobs/job_1/uploads/up_1')
      .reply(200, upload([1, 2, 3, 4, 5]))
      .post('/bulk/jobs/job_1/uploads/up_1/complete')
      .reply(200, upload([1, 2, 3, 4, 5], { completed: true, bytes_received: FILE.length }));
    const puts = store();
    const progress: number[] = [];
    const seen: string[] = [];

    const done = await client().bulk.uploadInParts('job_1', new Uint8Array(FILE), {
      onUpload: (started) => seen.push(started.upload_id),
      onProgress: (sent) => progress.push(sent),
    });

    expect(done.completed).toBe(true);
    expect(seen).toEqual(['up_1']);
    expect(puts.map((put) => put.part)).toEqual([1, 2, 3, 4, 5]);
    expect(puts.map((put) => put.body).join('')).toBe(FILE.toString());
    expect(progress).toEqual([0, 10, 20, 30, 40, FILE.length, FILE.length]);
    api.done();
  });

  it('after a dropped connection, sends only what the service does not hold', async () => {
    nock(BASE)
      .post('/bulk/jobs/job_1/uploads')
      .reply(201, upload([]))
      // After part 3's connection dropped, the service holds parts 1 and 2.
      .get('/bulk/jobs/job_1/uploads/up_1')
      .reply(200, upload([1, 2]))
      .get('/bulk/jobs/job_1/uploads/up_1')
      .reply(200, upload([1, 2, 3, 4, 5]))
      .post('/bulk/jobs/job_1/uploads/up_1/complete')
      .reply(200, upload([1, 2, 3, 4, 5], { completed: true }));
    // Part 3's first connection drops before an answer.
    nock(STORE).put('/parts/3').query(true).replyWithError('socket hang up');
    const puts = store();
    const scrub = client();

    await scrub.bulk.uploadInParts('job_1', new Uint8Array(FILE));

    // Parts 1 and 2 went once; 3 (dropped) again, then the rest: never from byte 0.
    expect(puts.map((put) => put.part)).toEqual([1, 2, 3, 4, 5]);
    const bytesSent = puts.reduce((sum, put) => sum + put.body.length, 0);
    expect(bytesSent).toBe(FILE.length);
    expect(scrub.delays).toHaveLength(1);
  });

  it('retries a part the store answered with a 5xx, and gives up after maxPartRetries', async () => {
    nock(BASE)
      .post('/bulk/jobs/job_1/uploads')
      .reply(201, upload([]))
      .get('/bulk/jobs/job_1/uploads/up_1')
      .times(3)
      .reply(200, upload([]));
    store(() => 503);

    await expect(
      client().bulk.uploadInParts('job_1', new Uint8Array(FILE), { maxPartRetries: 2 }),
    ).rejects.toMatchObject({ status: 503 });
  });

  it('does not retry a refusal that sending again cannot change', async () => {
    nock(BASE).post('/bulk/jobs/job_1/uploads').reply(201, upload([]));
    const puts = store(() => 413);

    await expect(client().bulk.uploadInParts('job_1', new Uint8Array(FILE))).rejects.toThrow(
      PayloadTooLargeError,
    );
    expect(puts).toHaveLength(1);
  });

  describe('resuming by upload id', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'scrub-parts-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads the file from disk and sends only the missing parts', async () => {
      const path = join(dir, 'leads.csv');
      writeFileSync(path, FILE);
      const api = nock(BASE)
        .get('/bulk/jobs/job_1/uploads/up_1')
        .reply(200, upload([1, 2, 3]))
        .get('/bulk/jobs/job_1/uploads/up_1')
        .reply(200, upload([1, 2, 3, 4, 5]))
        .post('/bulk/jobs/job_1/uploads/up_1/complete')
        .reply(200, upload([1, 2, 3, 4, 5], { completed: true }));
      const puts = store();
      const progress: number[] = [];

      await client().bulk.uploadInParts('job_1', path, {
        uploadId: 'up_1',
        onProgress: (sent) => progress.push(sent),
      });

      expect(puts.map((put) => put.part)).toEqual([4, 5]);
      expect(puts.map((put) => put.body).join('')).toBe(FILE.subarray(30).toString());
      expect(progress[0]).toBe(30);
      api.done();
    });

    it('refuses to resume an upload of another file', async () => {
      nock(BASE)
        .get('/bulk/jobs/job_1/uploads/up_1')
        .reply(200, upload([1], { size: 99 }));
      await expect(
        client().bulk.uploadInParts('job_1', new Uint8Array(FILE), { uploadId: 'up_1' }),
      ).rejects.toThrow(ScrubError);
    });
  });
});
