import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { accountWithApiKey, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = new URL('./crm-import.ts', import.meta.url).pathname;
const contacts = new URL('./contacts.json', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'scrub-crm-import-'));

/** Runs the example as its README says: `node src/crm-import.ts contacts.json scrubbed.json`. */
async function runExample(env: Record<string, string>, args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startLocalServer();
  const key = await accountWithApiKey(server, { sub: 'crm-import', email: 'crm@example.com', credits: 100 });
  env = { SCRUB_API_URL: server.url, SCRUB_API_KEY: key };
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the CRM import example', () => {
  it('writes every contact back with its line type and DNC status, none unchecked marked callable', async () => {
    const output = join(dir, 'scrubbed.json');
    const result = await runExample(env, [contacts, output]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`5 contacts: 0 callable, 1 not checked; written to ${output}\n`);
    const scrubbed = JSON.parse(readFileSync(output, 'utf8')) as Record<string, unknown>[];
    const sent = JSON.parse(readFileSync(contacts, 'utf8')) as Record<string, unknown>[];
    // The contacts come back as sent, in order, with the four fields added.
    expect(scrubbed.map(({ line_type, dnc, callable, scrub_error, ...rest }) => rest)).toEqual(sent);
    // The service has no do-not-call list loaded: valid numbers are unchecked, which is not clean.
    expect(
      scrubbed.map(({ id, line_type, dnc, callable, scrub_error }) => ({
        id,
        line_type,
        dnc,
        callable,
        scrub_error,
      })),
    ).toEqual([
      {
        id: 'c-1',
        line_type: expect.stringMatching(/^(mobile|landline|voip)$/),
        dnc: 'unchecked',
        callable: false,
        scrub_error: null,
      },
      {
        id: 'c-2',
        line_type: expect.stringMatching(/^(mobile|landline|voip)$/),
        dnc: 'unchecked',
        callable: false,
        scrub_error: null,
      },
      { id: 'c-3', line_type: 'toll_free', dnc: 'unchecked', callable: false, scrub_error: null },
      { id: 'c-4', line_type: 'invalid', dnc: 'not_a_number', callable: false, scrub_error: null },
      { id: 'c-5', line_type: null, dnc: null, callable: false, scrub_error: 'no phone number' },
    ]);
  });

  it('writes nothing and exits 1 when the API key is refused', async () => {
    const output = join(dir, 'refused.json');
    const result = await runExample({ ...env, SCRUB_API_KEY: 'scrub_not_a_key' }, [contacts, output]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The Scrub API refused the run, nothing was written');
    expect(() => readFileSync(output)).toThrow();
  });

  it('says how to run it when the files are not given (exit 2)', async () => {
    const result = await runExample(env, []);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'Usage: node src/crm-import.ts <contacts.json> <scrubbed.json>\n',
    });
  });
});
