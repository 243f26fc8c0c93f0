import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { accountWithApiKey, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exampleDir = new URL('../', import.meta.url).pathname;

function hasCurl(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('curl is not installed: the curl walkthrough is not run');
    return false;
  }
}

/** `bash walkthrough.sh`, as the README says. */
async function runWalkthrough(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', ['walkthrough.sh'], {
      cwd: exampleDir,
      env: { PATH: process.env.PATH, ...env },
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
  key = await accountWithApiKey(server, { sub: 'curl', email: 'curl@example.com', credits: 100 });
});

afterAll(async () => {
  await server?.close();
});

describe.runIf(hasCurl())('the curl walkthrough', () => {
  it('checks a number, then runs a bulk job and prints its result', async () => {
    const run = await runWalkthrough({ SCRUB_API_URL: server.url, SCRUB_API_KEY: key });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const out = run.stdout.split('\n');
    expect(out).toContain('== GET /health (no key needed)');
    expect(run.stdout).toContain('"credits_remaining":100,');
    expect(run.stdout).toMatch(
      /"phone_number":"\+12012345678","line_type":"(mobile|landline|voip)","line_type_source":"sample",.*"dnc":null/,
    );
    expect(out).toContainEqual(expect.stringMatching(/^job [0-9a-f-]{36}$/));
    expect(out).toContain('status completed');
    // The result: every row as sent, plus Line Type and DNC (no do-not-call list is loaded here).
    expect(out.slice(-5)).toEqual([
      'Name,Phone,Line Type,DNC',
      expect.stringMatching(/^Ann,\(201\) 234-5678,(mobile|landline|voip),unchecked$/),
      'Cid,800-555-1234,toll_free,unchecked',
      'Dee,123-456-7890,invalid,',
      '',
    ]);
    // One check, then two valid numbers in the file: Dee's invalid one is given back.
    const credits = await fetch(`${server.url}/credits`, { headers: { 'x-api-key': key } });
    expect(await credits.json()).toMatchObject({ credits_remaining: 97 });
  });

  it('stops at the first refused call and prints the API error', async () => {
    const run = await runWalkthrough({ SCRUB_API_URL: server.url, SCRUB_API_KEY: 'scrub_not_a_key' });

    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain('"code":"invalid_api_key"');
    expect(run.stdout).not.toContain('== GET /verify');
  });

  it('says which variable is missing', async () => {
    const run = await runWalkthrough({ SCRUB_API_URL: server.url });
    expect(run).toMatchObject({
      code: 2,
      stderr: 'walkthrough: set SCRUB_API_KEY to your API key (the API page of the dashboard)\n',
    });
  });
});
