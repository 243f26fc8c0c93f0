import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { accountWithApiKey, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exampleDir = new URL('../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'scrub-ci-scrub-'));

/**
 * `scrub` on PATH, as `npm install --global @scrub/cli` puts it on a runner's: the built CLI of the
 * workspace. A shim, because pnpm links node_modules/.bin only for binaries that exist at install
 * time, and a fresh clone installs before it builds.
 */
function scrubOnPath(): string {
  const cli = join(exampleDir, 'node_modules', '@scrub', 'cli');
  const { bin } = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const binDir = join(dir, 'bin');
  mkdirSync(binDir, { recursive: true });
  const shim = join(binDir, 'scrub');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(cli, bin.scrub as string)}" "$@"\n`);
  chmodSync(shim, 0o755);
  return binDir;
}

/** `bash scrub-leads.sh` as the workflow runs it, with `scrub` on PATH. */
async function runScript(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', ['scrub-leads.sh'], {
      cwd: exampleDir,
      env: {
        PATH: [binDir, process.env.PATH].join(delimiter),
        SCRUB_CONFIG_DIR: join(dir, 'config'),
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const binDir = scrubOnPath();
let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startLocalServer();
  const key = await accountWithApiKey(server, { sub: 'ci-scrub', email: 'ci@example.com', credits: 100 });
  env = { SCRUB_API_URL: server.url, SCRUB_API_KEY: key };
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const resultRows = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);

describe('the scheduled CI scrub example', () => {
  it('fails the job (exit 5) on the default conditions, after writing the whole result', async () => {
    const result = join(dir, 'default.csv');
    const run = await runScript({ ...env, RESULT: result });

    expect(run.code).toBe(5);
    // No do-not-call list is loaded here: the valid numbers are unchecked; Dee's is not a number.
    expect(run.stderr).toBe('error: Rows matched --fail-on dnc,unchecked,invalid: unchecked 3, invalid 1\n');
    expect(resultRows(result)).toEqual([
      'Name,Phone,City,Line Type,DNC',
      expect.stringMatching(/^Ann,\(201\) 234-5678,Newark,(mobile|landline|voip),unchecked$/),
      expect.stringMatching(/^Bob,201\.234\.5678,"Newark, NJ",(mobile|landline|voip),unchecked$/),
      'Cid,800-555-1234,Anywhere,toll_free,unchecked',
      'Dee,123-456-7890,Nowhere,invalid,',
    ]);
  });

  it('passes (exit 0) when no row matches FAIL_ON', async () => {
    const result = join(dir, 'passed.csv');
    const run = await runScript({ ...env, RESULT: result, FAIL_ON: 'dnc' });

    expect(run.code, run.stderr).toBe(0);
    expect(resultRows(result)).toHaveLength(5);
  });

  it('fails with exit 3 and says what to do when SCRUB_API_KEY is not set', async () => {
    const run = await runScript({ SCRUB_API_URL: server.url });

    expect(run.code).toBe(3);
    expect(run.stderr).toBe('scrub-leads: SCRUB_API_KEY is not set: add your Scrub API key as a CI secret\n');
  });

  it('is what the sample workflow runs, with the key from a secret', () => {
    const workflow = readFileSync(join(exampleDir, 'scrub.yml'), 'utf8');

    expect(workflow).toContain('run: bash scrub-leads.sh');
    expect(workflow).toMatch(/SCRUB_API_KEY: \$\{\{ secrets\.SCRUB_API_KEY \}\}/);
    expect(workflow).toContain('npm install --global @scrub/cli');
  });
});
