import { Readable } from 'node:stream';
import { accountWithApiKey, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';
import { ConflictError, InsufficientCreditsError, NotFoundError } from '../errors.js';

/**
 * `scrub.bulk` and `scrub.files` against the real service in this process: its signed upload URLs,
 * its queue and worker, its result files.
 */
let server: RunningServer;
let accounts = 0;

// Starting the service runs its migrations on PGlite: seconds alone, tens on a busy machine.
beforeAll(async () => {
  server = await startLocalServer();
}, 120_000);
afterAll(() => server?.close());

/** A client with the API key of a new account holding `credits`. */
async function account(credits: number): Promise<Scrub> {
  const n = ++accounts;
  const apiKey = await accountWithApiKey(server, {
    sub: `sdk-bulk-${n}`,
    email: `sdk-bulk${n}@example.com`,
    credits,
  });
  return new Scrub({ baseURL: server.url, apiKey });
}

const LEADS = 'Name,Phone\nAnn,2012345678\nBob,(201) 234-5678\nCid,800-555-1234\nDee,123-456-7890\n';

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('bulk and files against the real server', () => {
  it('runs a job from a stream of unknown length, then lists and downloads it', async () => {
    const scrub = await account(10);
    const statuses: string[] = [];

    const job = await scrub.bulk.run(
      Readable.from(LEADS.match(/.{1,7}/gs) ?? []),
      { file_name: 'streamed.csv', phone_col: 'phone' },
      { onProgress: (polled) => statuses.push(polled.status), pollInterval: 50 },
    );

    expect(job).toMatchObject({
      status: 'completed',
      total_rows: 4,
      duplicates: 1,
      credits_charged: 4,
      credits_reversed: 2,
    });
    expect(statuses.at(-1)).toBe('completed');
    const files = [];
    for await (const file of scrub.files.list({ limit: 1 })) files.push(file.file_reference);
    expect(files).toEqual([job.file_reference]);
    expect(await scrub.files.get(job.file_reference)).toMatchObject({
      file_name: 'streamed.csv',
      status: 'completed',
    });

    const either = await text(
      await scrub.files.download(job.file_reference, { lineType: ['toll_free', 'invalid'] }),
    );
    expect(either.trim().split(/\r?\n/)).toEqual([
      'Name,Phone,Line Type,DNC',
      'Cid,800-555-1234,toll_free,unchecked',
      'Dee,123-456-7890,invalid,',
    ]);
    expect(await text(await scrub.files.downloadUpload(job.file_reference))).toBe(LEADS);
  });

  it('refuses a reused upload URL, a submit without credits, and a result asked for too early', async () => {
    const scrub = await account(1);
    const created = await scrub.bulk.create({ file_name: 'poor.csv', phone_col: 'Phone' });
    await scrub.bulk.upload(created, Buffer.from(LEADS));

    await expect(scrub.bulk.upload(created, Buffer.from(LEADS))).rejects.toThrow(ConflictError);
    await expect(scrub.bulk.submit(created.job_id)).rejects.toMatchObject({
      constructor: InsufficientCreditsError,
      creditsRequired: 4,
      creditsAvailable: 1,
    });
    await expect(scrub.files.download(created.file_reference, { maxRetries: 0 })).rejects.toMatchObject({
      constructor: ConflictError,
      code: 'results_not_ready',
    });
    await expect(scrub.files.download('NoSuchReference0000000000000000')).rejects.toThrow(NotFoundError);
  });
});
