import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type ClientRequest, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { BulkJob, CreatedBulkJob } from '@scrub/contract';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../client.js';
import {
  APIUserAbortError,
  BadRequestError,
  BulkJobFailedError,
  ConflictError,
  InsufficientCreditsError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ScrubError,
} from '../errors.js';
// The Node entry: uploads from a file path are its addition to the browser entry.
import { Scrub } from '../index.js';

const BASE = 'http://scrub.test';
// Another host, as an S3 bucket would be: nothing of the API's credentials may reach it.
const STORE = 'http://bucket.test';
const UPLOAD_PATH = '/uploads/ref_1.csv';
const UPLOAD_URL = `${STORE}${UPLOAD_PATH}?X-Amz-Signature=abc`;
const KEY = 'scrub_test_key';
const CSV = 'Name,Phone\nAda,2015550123\nBob,8005551234\n';

function job(fields: Partial<BulkJob> = {}): BulkJob {
  return {
    job_id: 'job_1',
    filename: 'leads.csv',
    status: 'awaiting_upload',
    created_at: '2026-03-01T12:00:00.000Z',
    completed_at: null,
    total_rows: null,
    processed_rows: 0,
    duplicates: 0,
    result_url: null,
    uploaded_file: null,
    file_reference: 'ref_1',
    credits_charged: 0,
    credits_reversed: 0,
    line_types: {},
    dnc_status: {},
    file_message: null,
    error: null,
    columns: [],
    columns_evaluated_at: null,
    ...fields,
  };
}

const created: CreatedBulkJob = {
  ...job(),
  message: 'Job created: PUT the CSV (Content-Type: text/csv) to upload_url, then submit the job.',
  upload_url: UPLOAD_URL,
  upload_expires_at: '2026-03-01T13:00:00.000Z',
};
const completed = job({
  status: 'completed',
  total_rows: 2,
  processed_rows: 2,
  completed_at: '2026-03-01T12:00:05.000Z',
  result_url: `${BASE}/files/ref_1/result`,
  credits_charged: 2,
  line_types: { mobile: 1, toll_free: 1 },
  dnc_status: { '0': 2 },
});

/** Records the waits (retries and polls) instead of sleeping through them. */
class RecordingScrub extends Scrub {
  readonly delays: number[] = [];

  protected override async sleep(ms: number): Promise<void> {
    this.delays.push(ms);
  }
}

const client = (options: ClientOptions = {}) =>
  new RecordingScrub({ baseURL: BASE, apiKey: KEY, maxRetries: 0, ...options });

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** The upload URL, answering `status`, and what reached it. */
function uploadTarget(status = 200, reply: string | object = ''): Received {
  const received: Received = { headers: {}, body: '' };
  nock(STORE)
    .put(UPLOAD_PATH)
    .query({ 'X-Amz-Signature': 'abc' })
    .reply(async (request: Request) => {
      received.headers = Object.fromEntries(request.headers);
      received.body = await request.text();
      return [status, reply];
    });
  return received;
}

/** `GET /bulk/jobs/job_1` answering these jobs in turn. */
/** The `wait` (hold) each poll of the last `jobPolls` asked the service for. */
let holdsAsked: (string | undefined)[] = [];

function jobPolls(...jobs: BulkJob[]) {
  const scope = nock(BASE);
  holdsAsked = [];
  for (const answer of jobs) {
    scope
      .get('/bulk/jobs/job_1')
      .query((query) => {
        holdsAsked.push(query.wait as string | undefined);
        return true;
      })
      .reply(200, answer);
  }
  return scope;
}

const dir = mkdtempSync(join(tmpdir(), 'scrub-sdk-bulk-'));

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  vi.unstubAllGlobals();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bulk.create', () => {
  it('posts the job with the API key and answers the upload URL', async () => {
    const scope = nock(BASE)
      .matchHeader('x-api-key', KEY)
      .post('/bulk/jobs', { file_name: 'leads.csv', phone_col: 'Phone', mapping: { first_name: 0 } })
      .reply(201, created);

    const answer = await client().bulk.create({
      file_name: 'leads.csv',
      phone_col: 'Phone',
      mapping: { first_name: 0 },
    });

    expect(answer).toEqual(created);
    scope.done();
  });

  it('sends mapped_headers with the mapping: the result is to name the mapped columns with the standard headers', async () => {
    const scope = nock(BASE)
      .post('/bulk/jobs', {
        file_name: 'leads.csv',
        phone_col: 'Phone',
        mapping: { full_name: 'Name', email: 'Mail' },
        mapped_headers: true,
      })
      .reply(201, created);

    await expect(
      client().bulk.create({
        file_name: 'leads.csv',
        phone_col: 'Phone',
        mapping: { full_name: 'Name', email: 'Mail' },
        mapped_headers: true,
      }),
    ).resolves.toEqual(created);
    scope.done();
  });

  it('sends consent_col and answers the job with its consent column, price and source', async () => {
    const echoed = { ...created, consent_col: 'Consent', credits_per_record: 2, reassigned_source: null };
    const scope = nock(BASE)
      .post('/bulk/jobs', { file_name: 'leads.csv', phone_col: 'Phone', consent_col: 'Consent' })
      .reply(201, echoed);

    const answer = await client().bulk.create({
      file_name: 'leads.csv',
      phone_col: 'Phone',
      consent_col: 'Consent',
    });

    expect(answer).toMatchObject({ consent_col: 'Consent', credits_per_record: 2, reassigned_source: null });
    scope.done();
  });

  it('sends lookup: carrier and answers the job with its lookups and line-type sources', async () => {
    const scope = nock(BASE)
      .post('/bulk/jobs', { file_name: 'leads.csv', phone_col: 'Phone', lookup: 'carrier' })
      .reply(201, { ...created, lookup: 'carrier', credits_per_record: 3, carrier_lookups: null })
      .get(`/bulk/jobs/${created.job_id}`)
      .reply(200, {
        ...created,
        status: 'completed',
        lookup: 'carrier',
        columns: ['line_type_source'],
        carrier_lookups: { provider: 'twilio', answered: 2, not_answered: 1 },
        line_type_sources: { carrier_lookup: 2, exchange: 1 },
      });

    const made = await client().bulk.create({
      file_name: 'leads.csv',
      phone_col: 'Phone',
      lookup: 'carrier',
    });
    expect(made).toMatchObject({ lookup: 'carrier', credits_per_record: 3 });
    const done = await client().bulk.get(created.job_id);
    expect(done).toMatchObject({
      carrier_lookups: { provider: 'twilio', answered: 2, not_answered: 1 },
      line_type_sources: { carrier_lookup: 2, exchange: 1 },
    });
    scope.done();
  });
});

describe('bulk.upload', () => {
  it('streams a file from its path with its length, text/csv and no credentials', async () => {
    const path = join(dir, 'leads.csv');
    writeFileSync(path, CSV);
    const received = uploadTarget();
    const progress: [number, number | undefined][] = [];

    await client().bulk.upload(created, path, { onProgress: (sent, total) => progress.push([sent, total]) });

    expect(received.body).toBe(CSV);
    expect(received.headers['content-type']).toBe('text/csv');
    expect(received.headers['content-length']).toBe(String(CSV.length));
    for (const header of ['x-api-key', 'authorization', 'idempotency-key']) {
      expect(received.headers).not.toHaveProperty(header);
    }
    expect(progress[0]).toEqual([0, CSV.length]);
    expect(progress.at(-1)).toEqual([CSV.length, CSV.length]);
  });

  it('sends bytes in slices, reporting progress for each, to a URL given alone', async () => {
    const bytes = Buffer.alloc(200 * 1024, 'a');
    const received = uploadTarget();
    const sent: number[] = [];

    await client().bulk.upload(UPLOAD_URL, bytes, {
      onProgress: (count, total) => {
        expect(total).toBe(bytes.length);
        sent.push(count);
      },
    });

    expect(received.body.length).toBe(bytes.length);
    expect(received.headers['content-length']).toBe(String(bytes.length));
    expect(sent).toEqual([0, 65_536, 131_072, 196_608, 204_800]);
  });

  it.each([
    [
      'a web ReadableStream',
      () => Readable.toWeb(Readable.from([Buffer.from('Name,Phone\n'), 'Ada,2015550123\n'])),
    ],
    ['a Node Readable', () => Readable.from([Buffer.from('Name,Phone\n'), 'Ada,2015550123\n'])],
  ])('streams %s without a length', async (_, source) => {
    const received = uploadTarget();
    const progress: [number, number | undefined][] = [];

    await client().bulk.upload(created, source() as ReadableStream<Uint8Array>, {
      onProgress: (sent, total) => progress.push([sent, total]),
    });

    expect(received.body).toBe('Name,Phone\nAda,2015550123\n');
    expect(received.headers['content-type']).toBe('text/csv');
    expect(received.headers['transfer-encoding']).toBe('chunked');
    expect(progress).toEqual([
      [0, undefined],
      [11, undefined],
      [26, undefined],
    ]);
  });

  it.each([
    [403, PermissionDeniedError, 'AccessDenied Request has expired'],
    [409, ConflictError, 'This upload URL was used already'],
    [413, PayloadTooLargeError, 'The file is larger than 2,147,483,648 bytes'],
  ])('throws a typed error when the URL refuses the file (%i)', async (status, ErrorClass, message) => {
    // S3 answers in XML; the local store in the API's JSON.
    uploadTarget(
      status,
      status === 403
        ? '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>'
        : { error: { code: 'conflict', message }, message },
    );

    const error = await client()
      .bulk.upload(created, Buffer.from(CSV))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as Error).message).toBe(`${status} ${message}`);
  });

  it('refuses a job whose file came inline', async () => {
    await expect(client().bulk.upload({ ...created, upload_url: null }, Buffer.from(CSV))).rejects.toThrow(
      ScrubError,
    );
  });

  it('stops and closes the source when the signal aborts', async () => {
    nock(STORE).put(UPLOAD_PATH).query(true).delay(5_000).reply(200);
    const source = Readable.from(['Name,Phone\n', 'Ada,2015550123\n']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    await expect(client().bulk.upload(created, source, { signal: controller.signal })).rejects.toThrow(
      APIUserAbortError,
    );
    expect(source.destroyed).toBe(true);
  });
});

/**
 * A browser's XMLHttpRequest, as much as an upload uses, on Node's http client (which nock
 * intercepts): the body goes in slices, each reported to `upload.onprogress` once written.
 */
class NodeXhr {
  static created = 0;
  readonly upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  onprogress: (() => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  #method = '';
  #url = '';
  #headers: Record<string, string> = {};
  #responseHeaders = '';
  #request: ClientRequest | undefined;

  constructor() {
    NodeXhr.created++;
  }

  open(method: string, url: string): void {
    this.#method = method;
    this.#url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.#headers[name] = value;
  }

  getAllResponseHeaders(): string {
    return this.#responseHeaders;
  }

  abort(): void {
    this.#request?.destroy();
  }

  send(body: Blob): void {
    void body.bytes().then((bytes) => {
      const headers = { ...this.#headers, 'content-length': String(bytes.byteLength) };
      const request = httpRequest(this.#url, { method: this.#method, headers }, (response) => {
        this.status = response.statusCode ?? 0;
        this.#responseHeaders = Object.entries(response.headers)
          .map(([name, value]) => `${name}: ${String(value)}`)
          .join('\r\n');
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          this.responseText += chunk;
          this.onprogress?.();
        });
        response.on('end', () => this.onload?.());
      });
      request.on('error', () => this.onerror?.());
      this.#request = request;
      let loaded = 0;
      for (let start = 0; start < bytes.byteLength; start += 16) {
        const slice = bytes.subarray(start, start + 16);
        request.write(slice, () => {
          loaded += slice.byteLength;
          this.upload.onprogress?.({ loaded });
        });
      }
      request.end();
    });
  }
}

describe('bulk.upload in a browser', () => {
  const file = new Blob([CSV], { type: 'text/csv' });

  it('sends a File with XMLHttpRequest, reporting its progress', async () => {
    vi.stubGlobal('XMLHttpRequest', NodeXhr);
    const received = uploadTarget();
    const progress: [number, number | undefined][] = [];

    await client().bulk.upload(created, file, { onProgress: (sent, total) => progress.push([sent, total]) });

    expect(received.body).toBe(CSV);
    expect(received.headers['content-type']).toBe('text/csv');
    expect(received.headers).not.toHaveProperty('x-api-key');
    expect(progress[0]).toEqual([0, CSV.length]);
    expect(progress.at(-1)).toEqual([CSV.length, CSV.length]);
    expect(progress.length).toBeGreaterThan(2);
  });

  it('throws the typed error of a refused upload', async () => {
    vi.stubGlobal('XMLHttpRequest', NodeXhr);
    const message = 'This upload URL was used already';
    uploadTarget(409, { error: { code: 'conflict', message }, message });

    const error = await client()
      .bulk.upload(created, file)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toBe(`409 ${message}`);
  });

  it('uses the fetch the client was given instead', async () => {
    vi.stubGlobal('XMLHttpRequest', NodeXhr);
    const before = NodeXhr.created;
    const received = uploadTarget();

    await client({ fetch: (url, init) => fetch(url, init) }).bulk.upload(created, file);

    expect(received.body).toBe(CSV);
    expect(received.headers['content-length']).toBe(String(CSV.length));
    expect(NodeXhr.created).toBe(before);
  });
});

describe('bulk.submit', () => {
  it('throws InsufficientCreditsError with what is needed and what is left', async () => {
    nock(BASE)
      .post('/bulk/jobs/job_1/submit')
      .reply(402, {
        error: {
          code: 'insufficient_credits',
          message: 'Not enough credits: this needs 2 and the account has 1.',
        },
        message: 'Not enough credits: this needs 2 and the account has 1.',
        credits_required: 2,
        credits_available: 1,
      });

    const error = await client()
      .bulk.submit('job_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ creditsRequired: 2, creditsAvailable: 1, code: 'insufficient_credits' });
  });

  it('throws BadRequestError for a file that cannot be read', async () => {
    nock(BASE)
      .post('/bulk/jobs/job_1/submit')
      .reply(400, { error: { code: 'csv_empty', message: 'Csv is empty' }, message: 'Csv is empty' });

    const error = await client()
      .bulk.submit('job_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'csv_empty', message: '400 Csv is empty' });
  });
});

describe('bulk.wait', () => {
  it('asks the service to hold each poll until the job ends, with no pause between, and resolves with the completed job', async () => {
    const running = (processed: number) =>
      job({ status: 'processing', total_rows: 2, processed_rows: processed });
    const scope = jobPolls(
      job({ status: 'queued' }),
      running(0),
      running(1),
      running(1),
      running(1),
      running(2),
      completed,
    );
    const scrub = client();
    const seen: number[] = [];

    const done = await scrub.bulk.wait('job_1', { onProgress: (polled) => seen.push(polled.processed_rows) });

    expect(done).toEqual(completed);
    expect(scrub.delays).toEqual([]);
    // Held 2 s at a time while progress is shown, so the progress stays fresh.
    expect(holdsAsked).toEqual(['2', '2', '2', '2', '2', '2', '2']);
    expect(seen).toEqual([0, 0, 1, 1, 1, 2, 2]);
    scope.done();
  });

  it('holds each poll 20 s without progress, and never longer than the request timeout allows', async () => {
    jobPolls(job({ status: 'queued' }), completed);
    await client().bulk.wait('job_1');
    expect(holdsAsked).toEqual(['20', '20']);

    jobPolls(job({ status: 'queued' }), completed);
    await new Scrub({ baseURL: BASE, apiKey: KEY, timeout: 9_000 }).bulk.wait('job_1');
    expect(holdsAsked).toEqual(['4', '4']);
  });

  it('takes its own poll intervals', async () => {
    jobPolls(job({ status: 'queued' }), job({ status: 'queued' }), job({ status: 'queued' }), completed);
    const scrub = client();

    await scrub.bulk.wait('job_1', { pollInterval: 100, maxPollInterval: 300 });

    expect(scrub.delays).toEqual([100, 200, 300]);
  });

  it('throws BulkJobFailedError carrying the failed job', async () => {
    const failed = job({
      status: 'failed',
      error: 'The file is not UTF-8 or UTF-16 text',
      credits_reversed: 2,
    });
    jobPolls(job({ status: 'processing' }), failed);

    const error = await client()
      .bulk.wait('job_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(BulkJobFailedError);
    expect((error as BulkJobFailedError).job).toEqual(failed);
    expect((error as Error).message).toBe('Bulk job job_1 failed: The file is not UTF-8 or UTF-16 text');
  });

  it('refuses to wait for a job that was never submitted', async () => {
    jobPolls(job());

    await expect(client().bulk.wait('job_1')).rejects.toThrow('has not been submitted');
  });

  it('stops waiting when the signal aborts', async () => {
    nock(BASE)
      .persist()
      .get('/bulk/jobs/job_1')
      .query(true)
      .reply(200, job({ status: 'queued' }));
    const scrub = new Scrub({ baseURL: BASE, apiKey: KEY });
    const controller = new AbortController();
    let polls = 0;

    const waiting = scrub.bulk.wait('job_1', {
      signal: controller.signal,
      pollInterval: 60_000,
      onProgress: () => {
        polls++;
        controller.abort();
      },
    });

    await expect(waiting).rejects.toThrow(APIUserAbortError);
    expect(polls).toBe(1);
  });
});

describe('bulk.run', () => {
  it('creates, uploads, submits and waits in one call', async () => {
    const scope = nock(BASE)
      .post('/bulk/jobs', { file_name: 'leads.csv', phone_col: 1, header_row: 1 })
      .reply(201, created)
      .post('/bulk/jobs/job_1/submit')
      .reply(200, job({ status: 'queued', total_rows: 2 }))
      .get('/bulk/jobs/job_1')
      .query({ wait: 2 })
      .reply(200, job({ status: 'processing', total_rows: 2, processed_rows: 1 }))
      .get('/bulk/jobs/job_1')
      .query({ wait: 2 })
      .reply(200, completed);
    const received = uploadTarget();
    const uploaded: number[] = [];
    const polled: string[] = [];

    const done = await client().bulk.run(
      Buffer.from(CSV),
      { file_name: 'leads.csv', phone_col: 1, header_row: 1 },
      {
        onUploadProgress: (sent) => uploaded.push(sent),
        onProgress: (polledJob) => polled.push(polledJob.status),
      },
    );

    expect(done).toEqual(completed);
    expect(received.body).toBe(CSV);
    expect(uploaded.at(-1)).toBe(CSV.length);
    expect(polled).toEqual(['processing', 'completed']);
    scope.done();
  });

  it('goes on when a retried submit finds the job already submitted', async () => {
    nock(BASE)
      .post('/bulk/jobs')
      .reply(201, created)
      .post('/bulk/jobs/job_1/submit')
      .reply(409, { error: { code: 'conflict', message: 'This job was already submitted (it is queued).' } })
      .get('/bulk/jobs/job_1')
      .reply(200, job({ status: 'queued' }));
    jobPolls(completed);
    uploadTarget();

    await expect(
      client().bulk.run(Buffer.from(CSV), { file_name: 'leads.csv', phone_col: 'Phone' }),
    ).resolves.toEqual(completed);
  });

  it('does not wait when the submit is refused', async () => {
    nock(BASE)
      .post('/bulk/jobs')
      .reply(201, created)
      .post('/bulk/jobs/job_1/submit')
      .reply(402, {
        error: { code: 'insufficient_credits', message: 'Not enough credits' },
        credits_required: 3,
        credits_available: 0,
      });
    uploadTarget();

    await expect(
      client().bulk.run(Buffer.from(CSV), { file_name: 'leads.csv', phone_col: 'Phone' }),
    ).rejects.toThrow(InsufficientCreditsError);
    expect(nock.pendingMocks()).toEqual([]);
  });
});

describe('bulk.quote', () => {
  it('asks what submitting would charge, by the job id', async () => {
    const quote = {
      job_id: 'job_1',
      records: 5,
      unique_numbers: 3,
      duplicates: 1,
      credits_required: 5,
      credits_available: 3,
      unlimited: false,
      sufficient: false,
      plan_paused: false,
    };
    const scope = nock(BASE).get('/bulk/jobs/job_1/quote').reply(200, quote);
    await expect(new Scrub({ baseURL: BASE, apiKey: 'scrub_test' }).bulk.quote('job_1')).resolves.toEqual(
      quote,
    );
    scope.done();
  });
});
