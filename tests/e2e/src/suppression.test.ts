import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunResult, scrub, scrubServer, startServer, tempDir } from './harness.js';

const EMAIL = 'optouts@example.com';
const PASSWORD = 'Correct-Horse-9';
const withPassword = { input: `${PASSWORD}\n` };

function succeeded(result: RunResult, what: string): RunResult {
  if (result.code !== 0) {
    throw new Error(`${what} exited ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return result;
}

describe('the suppression list, on the built binaries', () => {
  it('scrub suppression add, then scrub verify and scrub bulk report the number as internal; the operator import joins it', async () => {
    const server = await startServer(tempDir('data-'));
    const config = tempDir('config-');
    const cli = (args: string[], input?: string) =>
      scrub(['--api-url', server.url, ...args], config, input === undefined ? {} : { input });

    succeeded(
      await cli(['signup', '--email', EMAIL, '--password-stdin'], withPassword.input),
      'scrub signup',
    );
    const mail = succeeded(await scrubServer(['mail', '--to', EMAIL, '--last'], server.dataDir), 'mail');
    const code = /Your Scrub verification code: (\d{6})/.exec(mail.stdout)?.[1] ?? '';
    succeeded(await cli(['confirm', '--email', EMAIL, '--code', code]), 'scrub confirm');
    succeeded(await cli(['login', '--email', EMAIL, '--password-stdin'], withPassword.input), 'scrub login');
    succeeded(await scrubServer(['credits', 'grant', EMAIL, '20'], server.dataDir), 'credits grant');

    const added = succeeded(
      await cli(['--json', 'suppression', 'add', '(202) 444-0601']),
      'scrub suppression add',
    );
    expect(JSON.parse(added.stdout)).toMatchObject({
      changed: 1,
      summary: { count: 1, list_name: 'internal' },
    });

    const check = succeeded(await cli(['--json', 'verify', '2024440601', '2024440602']), 'scrub verify');
    const answers = check.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers[0]).toMatchObject({ dnc: 1, dnc_sources: ['internal'], dnc_lists_checked: ['internal'] });
    expect(answers[1]).toMatchObject({ dnc: 0, dnc_sources: [], dnc_lists_checked: ['internal'] });

    const bulk = succeeded(
      await cli(['bulk', '-', '--phone-col', 'Phone', '--wait', '--yes'], 'Phone\n2024440601\n2024440603\n'),
      'scrub bulk',
    );
    expect(
      bulk.stdout
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/),
    ).toEqual([
      'Phone,Line Type,DNC',
      expect.stringMatching(/^2024440601,\w+,1$/),
      expect.stringMatching(/^2024440603,\w+,0$/),
    ]);

    // The operator's list for the account joins the account's own: one list, named internal.
    const file = join(tempDir('import-'), 'ops.csv');
    writeFileSync(file, '2024440604\n');
    succeeded(
      await scrubServer(['data', 'import', 'internal', file, '--account', EMAIL], server.dataDir),
      'scrub-server data import internal',
    );
    await expect
      .poll(
        async () => JSON.parse(succeeded(await cli(['--json', 'verify', '2024440604']), 'verify').stdout),
        {
          timeout: 15_000,
          interval: 250,
        },
      )
      .toMatchObject({ dnc: 1, dnc_sources: ['internal'] });

    succeeded(await cli(['suppression', 'remove', '2024440601']), 'scrub suppression remove');
    const after = JSON.parse(succeeded(await cli(['--json', 'verify', '2024440601']), 'scrub verify').stdout);
    expect(after).toMatchObject({ dnc: 0, dnc_sources: [] });
    const exported = succeeded(await cli(['suppression', 'export']), 'scrub suppression export');
    expect(exported.stdout).toBe('phone_number,added_at\n');
  }, 120_000);
});
