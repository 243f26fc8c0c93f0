import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { accountWithApiKey, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exampleDir = new URL('../', import.meta.url).pathname;

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('python3 is not installed: the Python example is not run');
    return false;
  }
}

/** `python3 scrub_check.py <phones>`, as the README says. */
async function runSnippet(env: Record<string, string>, phones: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)('python3', ['scrub_check.py', ...phones], {
      cwd: exampleDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

let server: RunningServer;
let key: string;

beforeAll(async () => {
  server = await startLocalServer();
  key = await accountWithApiKey(server, { sub: 'python', email: 'python@example.com', credits: 10 });
});

afterAll(async () => {
  await server?.close();
});

describe.runIf(hasPython())('the Python example', () => {
  it('prints one JSON line per number, unchecked never shown as clean', async () => {
    const run = await runSnippet({ SCRUB_API_URL: server.url, SCRUB_API_KEY: key }, [
      '(201) 234-5678',
      '800-555-1234',
      'not a number',
    ]);

    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        input: '(201) 234-5678',
        phone_number: '+12012345678',
        line_type: expect.stringMatching(/^(mobile|landline|voip)$/),
        dnc: 'unchecked',
        credits_remaining: 9,
      },
      {
        input: '800-555-1234',
        phone_number: '+18005551234',
        line_type: 'toll_free',
        dnc: 'unchecked',
        credits_remaining: 8,
      },
      // Not a number: answered, and free.
      {
        input: 'not a number',
        phone_number: 'not a number',
        line_type: 'invalid',
        dnc: 'not_a_number',
        credits_remaining: 8,
      },
    ]);
  });

  it("prints the API's error for a refused key and exits 1", async () => {
    const run = await runSnippet({ SCRUB_API_URL: server.url, SCRUB_API_KEY: 'scrub_not_a_key' }, [
      '2012345678',
    ]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^2012345678: .+ \(401 invalid_api_key\)\n$/);
  });

  it('shows its usage without a key (exit 2)', async () => {
    const run = await runSnippet({ SCRUB_API_URL: server.url }, ['2012345678']);
    expect(run).toMatchObject({
      code: 2,
      stderr: 'usage: SCRUB_API_KEY=... python3 scrub_check.py <phone> [<phone>...]\n',
    });
  });
});
