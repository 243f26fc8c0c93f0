import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Scrub } from '@scrub/sdk';
import { loadConfig, type RunningServer, startServer } from '@scrub/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepaidPlanLines } from './list-plans.js';

const script = new URL('./list-plans.ts', import.meta.url).pathname;

/** Runs the example as its README says: `node src/list-plans.ts`, Node erasing the types. */
async function runExample(apiUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script], {
      env: { PATH: process.env.PATH, SCRUB_API_URL: apiUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** An address where nothing listens: a port the system just handed out and took back. */
async function closedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

// The database lives in memory; anything else the server keeps goes to a temporary directory, never to
// the developer's .data.
const dataDir = mkdtempSync(join(tmpdir(), 'scrub-example-'));
let server: RunningServer;

beforeAll(async () => {
  const env = { SCRUB_DATA_DIR: dataDir };
  server = await startServer(
    loadConfig(env, { port: 0, database: { kind: 'pglite', dataDir: null } }),
    false,
  );
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const expected = [
  'FLEXIBLE CREDITS (79541679412213)',
  '     $5.00  2,857 credits      $1.75 per 1,000',
  '    $10.00  5,714 credits      $1.75 per 1,000',
  '    $20.00  11,428 credits     $1.75 per 1,000',
  '    $50.00  28,571 credits     $1.75 per 1,000',
  '   $100.00  57,142 credits     $1.75 per 1,000',
  'BULK (79541679412216)',
  '    $83.00  50,000 credits     $1.66 per 1,000  5% off',
  '   $158.00  100,000 credits    $1.58 per 1,000  10% off',
  '   $744.00  500,000 credits    $1.49 per 1,000  15% off',
  ' $1,400.00  1,000,000 credits  $1.40 per 1,000  20% off',
  'UNLIMITED PASS (79541679412215)',
  '     $5.00  unlimited checks for 1 day',
  '    $10.00  unlimited checks for 2 days',
  '    $50.00  unlimited checks for 10 days',
];

describe('the list-plans example', () => {
  it('lists every prepaid price with the price per 1,000 credits', async () => {
    expect(await prepaidPlanLines(new Scrub({ baseURL: server.url }))).toEqual(expected);
  });

  it('runs with node as the README says and prints the same lines', async () => {
    const result = await runExample(server.url);
    expect(result).toEqual({ code: 0, stdout: `${expected.join('\n')}\n`, stderr: '' });
  });

  it('exits 1 with a message naming the address when the API cannot be reached', async () => {
    const url = await closedUrl();
    const result = await runExample(url);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Could not reach ${url}`);
    expect(result.stderr).toContain('Set SCRUB_API_URL');
  });
});
