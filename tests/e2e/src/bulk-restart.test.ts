import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { countCsv, sampleExchangeTable } from '@scrub/engine';
import type { BulkJob, CreatedBulkJob } from '@scrub/sdk';
import { describe, expect, it } from 'vitest';
import { type RunResult, scrub, scrubServer, startServer, tempDir } from './harness.js';
import { LEAD_HEADER, neutralised, writeLeadCsv } from './lead-csv.js';

// Big enough that the job is still running at its first heartbeat, 2 s in, when it first records
// progress: on 2 cores the server scrubs 0.3-0.7 M rows a second, so about a third is done then.
// The whole test takes 35-50 s there.
const ROWS = 3_000_000;
const email = 'bulk@example.com';
const password = 'Correct-Horse-9';
const GRANT = 5_000_000;

function succeeded(result: RunResult, what: string): RunResult {
  if (result.code !== 0) {
    throw new Error(`${what} exited ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return result;
}

/** An account with credits and an API key, made as a user and an operator make one. */
async function accountWithKey(url: string, dataDir: string): Promise<string> {
  const config = tempDir('config-');
  const cli = (args: string[], input?: string) =>
    scrub([...args, '--api-url', url], config, input === undefined ? {} : { input });
  succeeded(
    await cli(['signup', '--email', email, '--name', 'Bulk Tester', '--password-stdin'], `${password}\n`),
    'scrub signup',
  );
  const mail = succeeded(await scrubServer(['mail', '--to', email, '--last'], dataDir), 'scrub-server mail');
  const code = /Your Scrub verification code: (\d{6})/.exec(mail.stdout)?.[1];
  if (!code) throw new Error(`No verification code in:\n${mail.stdout}`);
  succeeded(await cli(['confirm', '--email', email, '--code', code]), 'scrub confirm');
  succeeded(await cli(['login', '--email', email, '--password-stdin'], `${password}\n`), 'scrub login');
  const key = succeeded(await cli(['key', 'rotate', '--yes']), 'scrub key rotate').stdout.trim();
  succeeded(
    await scrubServer(['credits', 'grant', email, String(GRANT)], dataDir),
    'scrub-server credits grant',
  );
  return key;
}

function client(apiKey: string) {
  return async <T>(url: string, method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
}

/** Polls until `done` says the job is where it should be; fails with the last state seen. */
async function waitForJob(
  get: () => Promise<BulkJob>,
  what: string,
  timeoutMs: number,
  done: (job: BulkJob) => boolean,
): Promise<BulkJob> {
  const deadline = Date.now() + timeoutMs;
  let job = await get();
  while (!done(job)) {
    if (job.status === 'failed') throw new Error(`The job failed while waiting for ${what}: ${job.error}`);
    if (Date.now() > deadline) {
      throw new Error(`No ${what} within ${timeoutMs / 1000} s; the job: ${JSON.stringify(job)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await get();
  }
  return job;
}

/** A stream's lines (without their `\n`), a chunk's worth at a time: millions of lines, quickly. */
async function* lineBatches(stream: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of stream) {
    const lines = (
      rest + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
    ).split('\n');
    rest = lines.pop() ?? '';
    yield lines;
  }
  rest += decoder.decode();
  if (rest !== '') yield [rest];
}

/**
 * Reads the result beside the input, line by line: the header and every row, in order, with
 * `Line Type` and `DNC` after the last column (formula cells neutralised). Answers the first
 * difference (or null), the rows, and the Line Type and DNC cells counted.
 */
async function compareResult(inputPath: string, result: AsyncIterable<Buffer>) {
  const input = lineBatches(createReadStream(inputPath, { highWaterMark: 1 << 20 }));
  let rows: string[] = [];
  let at = 0;
  /** Whether another input line is there (read ahead a batch at a time). */
  const more = async (): Promise<boolean> => {
    while (at === rows.length) {
      const batch = await input.next();
      if (batch.done) return false;
      rows = batch.value;
      at = 0;
    }
    return true;
  };
  const lineTypes: Record<string, number> = {};
  const dnc: Record<string, number> = {};
  const suffix = /^,(mobile|landline|voip|toll_free|unknown_geographic|invalid),(0|1|unchecked|)$/;
  let line = 0;
  const compare = (output: string, row: string): string | null => {
    if (line === 1) return output === `${LEAD_HEADER},Line Type,DNC` ? null : `the header is ${output}`;
    const expected = neutralised(row);
    const added = output.startsWith(expected) ? suffix.exec(output.slice(expected.length)) : null;
    if (!added) return `line ${line}: expected ${expected},<Line Type>,<DNC>, got ${output}`;
    const [, lineType = '', cell = ''] = added;
    lineTypes[lineType] = (lineTypes[lineType] ?? 0) + 1;
    const state = cell === '1' ? 'dnc' : cell === '0' ? 'clean' : cell === 'unchecked' ? 'unchecked' : 'none';
    dnc[state] = (dnc[state] ?? 0) + 1;
    if ((lineType === 'invalid') !== (state === 'none')) {
      return `line ${line}: a ${lineType} number with DNC "${cell}": ${output}`;
    }
    return null;
  };
  let difference: string | null = null;
  outer: for await (const batch of lineBatches(result)) {
    for (const output of batch) {
      line++;
      difference =
        at < rows.length || (await more())
          ? compare(output, rows[at++] ?? '')
          : `line ${line}: the result has a line the input does not: ${output}`;
      if (difference !== null) break outer;
    }
  }
  if (difference === null && (await more())) {
    difference = `the result ends after ${line} lines, before the input does`;
  }
  return { difference, rows: line - 1, lineTypes, dnc };
}

describe('a bulk job when the server is killed mid-job', () => {
  // One story: each step needs the one before, and the server's starts cost seconds each.
  it('is taken up again after a restart and ends with every row, the counts of the whole file and one charge', async () => {
    const dir = tempDir('bulk-');
    const csvPath = join(dir, 'leads.csv');
    const generated = await writeLeadCsv(csvPath, ROWS);
    const dataDir = tempDir('data-');
    const first = await startServer(dataDir);
    const apiKey = await accountWithKey(first.url, dataDir);
    const api = client(apiKey);
    const balance = async (url: string) => (await api<{ credits: number }>(url, 'GET', '/credits')).credits;
    const initial = await balance(first.url);

    const created = await api<CreatedBulkJob>(first.url, 'POST', '/bulk/jobs', {
      file_name: 'leads.csv',
      phone_col: 'phone',
      header_row: 1,
    });
    const upload = await fetch(created.upload_url!, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: Readable.toWeb(createReadStream(csvPath)) as ReadableStream<Uint8Array>,
      duplex: 'half',
    });
    expect(upload.status, await upload.text()).toBe(200);
    const submitted = await api<BulkJob>(first.url, 'POST', `/bulk/jobs/${created.job_id}/submit`);
    expect(submitted).toMatchObject({ total_rows: ROWS, credits_charged: ROWS });
    expect(await balance(first.url), 'one credit per record, taken at submit').toBe(initial - ROWS);

    const jobAt = (url: string) => () => api<BulkJob>(url, 'GET', `/bulk/jobs/${created.job_id}`);
    const running = await waitForJob(
      jobAt(first.url),
      'progress',
      60_000,
      (job) => job.status === 'completed' || (job.status === 'processing' && job.processed_rows > 0),
    );
    if (running.status === 'completed') {
      throw new Error(
        `The job finished before the server could be killed mid-job: make ROWS (${ROWS}) bigger. The job: ${JSON.stringify(running)}`,
      );
    }
    expect(running.processed_rows).toBeLessThan(ROWS);
    expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });

    // The engine's own count of the file, taken while the restarted server works.
    const counted = countCsv(createReadStream(csvPath, { highWaterMark: 1 << 20 }), {
      phoneColumn: 'phone',
      exchange: sampleExchangeTable(),
    });
    const second = await startServer(dataDir);
    const job = await waitForJob(jobAt(second.url), 'completion after the restart', 90_000, (current) => {
      return current.status === 'completed';
    });
    const counts = await counted;

    // What the generator knows of the file, what the engine counts, and what the job says agree.
    expect(counts).toMatchObject({
      rows: ROWS,
      duplicates: generated.duplicates,
      uniqueNumbers: generated.unique,
    });
    expect(counts.lineTypes).toMatchObject({ toll_free: generated.tollFree, invalid: generated.invalid });
    const nonZero = (record: Record<string, number>) =>
      Object.fromEntries(Object.entries(record).filter(([, count]) => count > 0));
    expect(job).toMatchObject({
      total_rows: ROWS,
      processed_rows: ROWS,
      duplicates: counts.duplicates,
      credits_charged: ROWS,
      credits_reversed: ROWS - counts.uniqueNumbers,
      line_types: nonZero(counts.lineTypes),
      // A fresh server has no do-not-call lists: no valid number was checked, none is clean.
      dnc_status: { unchecked: ROWS - counts.lineTypes.invalid },
      file_message: null,
      error: null,
    });

    // Charged once for the job, whatever the attempts: the records at submit, less what it did not need.
    expect(await balance(second.url)).toBe(initial - (job.credits_charged - job.credits_reversed));
    expect(await balance(second.url)).toBe(initial - counts.uniqueNumbers);

    const download = await fetch(`${second.url}/files/${job.file_reference}/result`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    const result = await compareResult(
      csvPath,
      Readable.fromWeb(download.body as WebReadableStream<Uint8Array>),
    );
    expect(result.difference).toBeNull();
    expect(result.rows).toBe(ROWS);
    expect(result.lineTypes).toEqual(job.line_types);
    expect(result.dnc).toEqual({ unchecked: job.dnc_status.unchecked, none: counts.lineTypes.invalid });

    // One "file ready" e-mail: the attempt that died sent none.
    const mail = succeeded(
      await scrubServer(['mail', '--to', email, '--json'], dataDir),
      'scrub-server mail',
    );
    const ready = (JSON.parse(mail.stdout) as { kind: string; subject: string }[]).filter(
      (message) => message.kind === 'file_ready',
    );
    expect(ready.map((message) => message.subject)).toEqual(['Your file leads.csv is ready']);
  }, 180_000);
});
