import type { BulkJob } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BulkJobFailedError, InsufficientCreditsError, NotFoundError } from '../errors.js';
import { Scrub } from '../index.js';

const BASE = 'http://scrub.test';
const KEY = 'scrub_test_key';
const CSV = 'Name,Phone\nAda,2015550123\nBob,8005551234\n';
const RESULT = 'Name,Phone,Line Type,DNC\nAda,2015550123,landline,0\nBob,8005551234,toll_free,0\n';

function job(fields: Partial<BulkJob>): BulkJob {
  return {
    job_id: 'job_1',
    filename: 'stdin.csv',
    status: 'completed',
    created_at: '2026-03-01T12:00:00.000Z',
    completed_at: '2026-03-01T12:00:01.000Z',
    total_rows: 2,
    processed_rows: 2,
    duplicates: 0,
    result_url: `${BASE}/files/ref_1/result`,
    uploaded_file: `${BASE}/files/ref_1/upload`,
    file_reference: 'ref_1',
    credits_charged: 2,
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

const client = () => new Scrub({ baseURL: BASE, apiKey: KEY, maxRetries: 2 });

async function* lines(text: string) {
  for (const line of text.split(/(?<=\n)/)) yield line;
}

const read = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('bulk.stream', () => {
  it('sends the file as the body with its options in the query, and hands back the result and the job id', async () => {
    let received: { headers: Record<string, string>; body: string; query: string } | undefined;
    nock(BASE)
      .post('/bulk/jobs/stream')
      .query(true)
      .reply(async (request: Request) => {
        received = {
          headers: Object.fromEntries(request.headers),
          body: await request.text(),
          query: new URL(request.url).search,
        };
        return [200, RESULT, { 'content-type': 'text/csv', 'scrub-job-id': 'job_1' }];
      });
    nock(BASE).get('/bulk/jobs/job_1').reply(200, job({}));

    const { jobId, result } = await client().bulk.stream(lines(CSV), {
      phone_col: 1,
      file_name: 'leads.csv',
      columns: ['timezone'],
    });
    expect(jobId).toBe('job_1');
    expect(await read(result)).toBe(RESULT);
    expect(received?.body).toBe(CSV);
    expect(received?.headers['content-type']).toBe('text/csv');
    expect(received?.headers['x-api-key']).toBe(KEY);
    // A streamed body cannot be replayed: no idempotency key promises that it could.
    expect(received?.headers['idempotency-key']).toBeUndefined();
    expect(new URLSearchParams(received?.query)).toEqual(
      new URLSearchParams({ file_name: 'leads.csv', phone_index: '1', columns: 'timezone' }),
    );
  });

  it('answers the ended job from the one request made at the end of the result', async () => {
    nock(BASE)
      .post('/bulk/jobs/stream')
      .query(true)
      .reply(200, RESULT, { 'content-type': 'text/csv', 'scrub-job-id': 'job_1' });
    // Answered once: a second request for the job would find no answer and fail.
    nock(BASE)
      .get('/bulk/jobs/job_1')
      .once()
      .reply(200, job({ credits_charged: 2 }));

    const streamed = await client().bulk.stream(Buffer.from(CSV), { phone_col: 'Phone' });
    expect(await read(streamed.result)).toBe(RESULT);
    expect(await streamed.endedJob()).toMatchObject({
      job_id: 'job_1',
      status: 'completed',
      credits_charged: 2,
    });
    expect(nock.isDone()).toBe(true);
  });

  it('sends the consent column by name as consent_col, by position as consent_index', async () => {
    const queries: string[] = [];
    for (let i = 0; i < 2; i++) {
      nock(BASE)
        .post('/bulk/jobs/stream')
        .query(true)
        .reply(async (request: Request) => {
          queries.push(new URL(request.url).search);
          return [200, RESULT, { 'content-type': 'text/csv', 'scrub-job-id': 'job_1' }];
        });
    }
    await read(
      (await client().bulk.stream(Buffer.from(CSV), { phone_col: 'Phone', consent_col: 'Consent' })).result,
    );
    await read((await client().bulk.stream(Buffer.from(CSV), { phone_col: 0, consent_col: 2 })).result);
    expect(queries.map((query) => Object.fromEntries(new URLSearchParams(query)))).toEqual([
      { phone_col: 'Phone', consent_col: 'Consent' },
      { phone_index: '0', consent_index: '2' },
    ]);
  });

  it('errors the result with the job when the job failed part-way (the credits ran out)', async () => {
    nock(BASE)
      .post('/bulk/jobs/stream')
      .query({ phone_col: 'Phone' })
      .reply(200, RESULT.split('\n').slice(0, 2).join('\n'), { 'scrub-job-id': 'job_1' });
    const error = 'Your credits ran out after 1 records: the result holds those records.';
    nock(BASE)
      .get('/bulk/jobs/job_1')
      .reply(200, job({ status: 'failed', total_rows: 1, error, result_url: null }));

    const { result } = await client().bulk.stream(Buffer.from(CSV), { phone_col: 'Phone' });
    const failure = await read(result).catch((reason: unknown) => reason);
    expect(failure).toBeInstanceOf(BulkJobFailedError);
    expect((failure as BulkJobFailedError).job.error).toBe(error);
  });

  it('throws a refusal before any row as the API error, sent once', async () => {
    const scope = nock(BASE)
      .post('/bulk/jobs/stream')
      .query(true)
      .reply(402, {
        error: {
          code: 'insufficient_credits',
          message: 'Not enough credits: this needs 40 and the account has 0.',
        },
        message: 'Not enough credits',
        credits_required: 40,
        credits_available: 0,
      });
    await expect(client().bulk.stream(Buffer.from(CSV), { phone_col: 'Phone' })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    expect(scope.isDone()).toBe(true);
  });

  it('answers NotFoundError from a service without the route (the CLI then falls back on a queued job)', async () => {
    nock(BASE)
      .post('/bulk/jobs/stream')
      .query(true)
      .reply(404, {
        error: { code: 'not_found', message: 'No such endpoint: POST /bulk/jobs/stream' },
        message: '',
      });
    await expect(client().bulk.stream(Buffer.from(CSV), { phone_col: 'Phone' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
