import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { BulkJob } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  refusingPrompter,
  scrub,
  startServerOnDisk,
} from '../../test/harness.js';
import { run } from '../program.js';

const HEADER = 'Name,Phone,Notes';
const row = (i: number) =>
  `Lead ${i},${i % 3 === 0 ? `+1 201 555 ${String(1000 + (i % 9000))}` : `(201)${200 + (i % 700)}-${String(1000 + (i % 9000))} x12`},"note ${i}\r\nsecond line"`;

/**
 * `cat leads.csv | scrub bulk - --wait`, with stdin a pipe this test writes into: the first result
 * rows come out while stdin is still open, and the whole result matches the queued job's.
 */
describe('scrub bulk - --wait streams', () => {
  let server: RunningServer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scrub-stream-data-'));
    server = await startServerOnDisk(dataDir);
    env = await apiKeyAccount(server, dataDir, 10_000);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the first rows before stdin has ended, then the whole result, as the queued job would', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    const out: Buffer[] = [];
    let firstRows: () => void = () => {};
    const rowsCameOut = new Promise<void>((resolve) => {
      firstRows = resolve;
    });
    const running = run(['bulk', '-', '--phone-col', 'Phone', '--wait'], {
      stdout: {
        write: (chunk: string | Uint8Array) => {
          out.push(Buffer.from(chunk));
          firstRows();
          return true;
        },
        isTTY: false,
      },
      stderr: { write: () => true, isTTY: false },
      stdin,
      env,
      prompter: refusingPrompter,
    });
    const lines = [HEADER, ...Array.from({ length: 3_000 }, (_, i) => row(i))];
    stdin.write(`${lines.slice(0, 1_500).join('\r\n')}\r\n`);
    await rowsCameOut;
    // stdin is still open: the rows came from the first half alone.
    expect(Buffer.concat(out).toString()).toMatch(/^Name,Phone,Notes,Line Type,DNC\r\nLead 0,/);
    stdin.end(`${lines.slice(1_500).join('\r\n')}\r\n`);
    expect(await running).toBe(0);
    const streamed = Buffer.concat(out).toString();

    // The same file as a queued job (a mapping goes the queued way): the same bytes.
    const queued = await scrub(
      ['bulk', '-', '--phone-col', 'Phone', '--map', 'first_name=Name', '--wait'],
      env,
      {
        stdin: `${lines.join('\r\n')}\r\n`,
      },
    );
    expect(queued.code, queued.stderr).toBe(0);
    expect(streamed).toBe(queued.stdout);
  });

  it('exits 4 when the credits run out part-way, pointing at the part that was scrubbed and charged', async () => {
    const poor = await apiKeyAccount(server, dataDir, 2_000);
    const lines = [HEADER, ...Array.from({ length: 20_000 }, (_, i) => row(i))];
    const output = join(dataDir, 'ran-out.csv');
    const result = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait', '-o', output], poor, {
      stdin: `${lines.join('\r\n')}\r\n`,
    });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(
      /Your credits ran out after [\d,]+ records: those were scrubbed and charged/,
    );
    const reference = /scrub export (\S+) -o FILE/.exec(result.stderr)?.[1];
    expect(reference).toBeTruthy();
    const part = await scrub(['export', reference!], poor);
    expect(part.code, part.stderr).toBe(0);
    expect(part.stdout).toMatch(/^Name,Phone,Notes,Line Type,DNC\r\nLead 0,/);
    const records = Number(/ran out after ([\d,]+) records/.exec(result.stderr)![1]!.replace(/,/g, ''));
    expect(records).toBeGreaterThan(0);
    expect(records).toBeLessThanOrEqual(2_000);
  });

  // An older service without the route answers 404, or 413 once the body is over its JSON limit.
  it.each([
    [404, 'not_found', 'No such endpoint'],
    [413, 'payload_too_large', 'The request body is larger than this API accepts.'],
  ])(
    'falls back on a queued job when the service answers %i for the streaming route, sending all of stdin',
    async (status, code, message) => {
      // A proxy in front of the service that answers for POST /bulk/jobs/stream as an older service does.
      const proxy = createServer(async (request, response) => {
        if (request.url?.startsWith('/bulk/jobs/stream')) {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { code, message }, message }));
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const answer = await fetch(`${server.url}${request.url}`, {
          method: request.method,
          headers: Object.fromEntries(
            Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'connection'),
          ) as Record<string, string>,
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        });
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const address = proxy.address() as { port: number };
      try {
        const lines = [HEADER, ...Array.from({ length: 500 }, (_, i) => row(i))];
        const result = await scrub(
          [
            '--json',
            'bulk',
            '-',
            '--phone-col',
            'Phone',
            '--wait',
            '-o',
            join(dataDir, `fallback-${status}.csv`),
          ],
          { ...env, SCRUB_API_URL: `http://127.0.0.1:${address.port}` },
          { stdin: `${lines.join('\r\n')}\r\n` },
        );
        expect(result.code, result.stderr).toBe(0);
        const job = JSON.parse(result.stdout) as BulkJob;
        expect(job).toMatchObject({ status: 'completed', total_rows: 500 });
      } finally {
        proxy.close();
      }
    },
  );
});
