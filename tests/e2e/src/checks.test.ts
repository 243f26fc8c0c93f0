import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, type ServerProcess, scrub, scrubServer, startServer, tempDir } from './harness.js';

const EMAIL = 'caller@example.com';
const PASSWORD = 'Correct-Horse-9';
const withPassword = { input: `${PASSWORD}\n` };

const lines = (result: RunResult) => result.stdout.trim().split(/\r?\n/);

describe('checks on the built binaries', () => {
  let server: ServerProcess;
  let cli: (args: string[], input?: string) => Promise<RunResult>;

  beforeAll(async () => {
    server = await startServer(tempDir('data-'));
    const config = tempDir('caller-');
    const at = ['--api-url', server.url];
    const run = (args: string[], input?: string) =>
      scrub([...at, ...args], config, input === undefined ? {} : { input });
    expect(await run(['signup', '--email', EMAIL, '--password-stdin'], withPassword.input)).toMatchObject({
      code: 0,
    });
    const mail = await scrubServer(['mail', '--to', EMAIL, '--last'], server.dataDir);
    const code = /^Subject: Your Scrub verification code: (\d{6})$/m.exec(mail.stdout)?.[1] ?? '';
    expect(await run(['confirm', '--email', EMAIL, '--code', code])).toMatchObject({ code: 0 });
    expect(await run(['login', '--email', EMAIL, '--password-stdin'], withPassword.input)).toMatchObject({
      code: 0,
    });
    expect(await scrubServer(['credits', 'grant', EMAIL, '5000'], server.dataDir)).toMatchObject({ code: 0 });
    cli = run;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('scrub bulk --columns timezone,callable_now adds the calling-window columns', async () => {
    const csv = 'Name,Phone\nIna,219-234-5678\nTia,800-555-1234\nNed,123-456-7890\n';
    const result = await cli(
      ['bulk', '-', '--phone-col', 'Phone', '--columns', 'timezone,callable_now', '--wait'],
      csv,
    );

    expect(result.code, result.stderr).toBe(0);
    expect(lines(result)).toEqual([
      'Name,Phone,Line Type,DNC,Time Zone,Callable Now',
      // 219 spans Eastern and Central time: both zones, and 1 only when both are in the window.
      expect.stringMatching(/^Ina,219-234-5678,\w+,unchecked,America\/New_York America\/Chicago,[01]$/),
      'Tia,800-555-1234,toll_free,unchecked,,',
      'Ned,123-456-7890,invalid,,,',
    ]);
    // Without --columns the result is as it always was.
    const plain = await cli(['bulk', '-', '--phone-col', 'Phone', '--wait'], csv);
    expect(lines(plain)[0]).toBe('Name,Phone,Line Type,DNC');
  });

  it('scrub verify --json gives the time zones and callable_now of /verify', async () => {
    const result = await cli(['verify', '219-234-5678', '800-555-1234', '--json']);

    expect(result.code, result.stderr).toBe(0);
    const [spanning, tollFree] = lines(result).map((line) => JSON.parse(line));
    expect(spanning).toMatchObject({
      timezones: ['America/New_York', 'America/Chicago'],
      callable_now: expect.any(Boolean),
      callable_reason: null,
    });
    expect(tollFree).toMatchObject({
      timezones: [],
      callable_now: null,
      callable_reason: expect.stringContaining('Toll-free'),
    });
  });

  it('scrub verify - sends a long stdin list in batches: every number answered, in order, charged once', async () => {
    const numbers = Array.from({ length: 1_500 }, (_, i) => `202${300 + (i % 90)}${String(2000 + i)}`);
    const before = JSON.parse((await cli(['credits', '--json'])).stdout).credits as number;

    const result = await cli(['verify', '-', '--json'], `${[...numbers, ...numbers].join('\n')}\n`);

    expect(result.code, result.stderr).toBe(0);
    const answers = lines(result).map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.input)).toEqual([...numbers, ...numbers]);
    const valid = answers.slice(0, 1_500).filter((answer) => answer.line_type !== 'invalid').length;
    const after = JSON.parse((await cli(['credits', '--json'])).stdout).credits as number;
    expect(before - after).toBe(valid);
  });
});
