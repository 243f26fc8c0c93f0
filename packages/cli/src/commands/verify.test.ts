import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreditSnapshot, VerifyResult } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  type RunResult,
  scrub,
  startServerOnDisk,
  tempConfigDir,
} from '../../test/harness.js';
import { answerCells, csvRow } from '../actions/verify.js';

/**
 * `scrub verify` against the real service in this process, on an embedded database on disk so that
 * `scrub-server credits grant` can reach it through its operator channel, as an operator would.
 * The service answers from its generated sample data.
 */
let server: RunningServer;
let dataDir: string;
let funded: NodeJS.ProcessEnv;

const GEOGRAPHIC = ['mobile', 'landline', 'voip'];
const THREE = ['2012345678', '8005551234', '1234567890'];

/** A CI job's environment: only the API key of a new account holding `credits`. */
const account = (credits: number) => apiKeyAccount(server, dataDir, credits);

async function creditsLeft(env: NodeJS.ProcessEnv): Promise<CreditSnapshot['credits_remaining']> {
  const result = await scrub(['--json', 'credits'], env);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as CreditSnapshot).credits_remaining;
}

type Answer = VerifyResult & { input: string };
const ndjson = (result: RunResult) =>
  result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Answer);
const lines = (result: RunResult) => result.stdout.split('\n').filter(Boolean);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scrub-check-data-'));
  server = await startServerOnDisk(dataDir);
  funded = await account(1_000);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('scrub verify <phone...> (alias: check)', () => {
  it('prints a table at a terminal: three numbers, three kinds of answer', async () => {
    const result = await scrub(['verify', ...THREE], { ...funded, NO_COLOR: '1' }, { tty: true });

    expect(result.code, result.stderr).toBe(0);
    const rows = result.stdout.split('\n').filter((line) => line.startsWith('│'));
    expect(rows[0]).toMatch(
      /│ Number +│ Line type +│ Source +│ DNC +│ Lists +│ Checked +│ Time zone +│ Callable now +│ Cached +│ Charged +│/,
    );
    // The service has no do-not-call list loaded: valid numbers are unchecked, never "no".
    expect(rows[1]).toMatch(
      /│ \+12012345678 +│ (mobile|landline|voip) +│ sample +│ unchecked +│ - +│ - +│ America\/New_York +│ (yes|no) +│ (no|yes) +│ [01] +│/,
    );
    // Toll-free numbers have no local time: no zone, and the window cannot be told.
    expect(rows[2]).toMatch(
      /│ \+18005551234 +│ toll_free +│ numbering plan +│ unchecked +│ - +│ - +│ - +│ - +│ (no|yes) +│ [01] +│/,
    );
    // An unreadable number is an answer, with its reason, and costs nothing.
    expect(rows[3]).toMatch(
      /│ \+11234567890 +│ invalid: Area code 123 \S.* +│ - +│ - +│ - +│ - +│ - +│ no +│ 0 +│/,
    );
    expect(result.stderr).toContain('generated sample data');
    // Before the first credit: a fresh install has no list, and says so.
    expect(result.stderr.split('\n')[0]).toBe(
      'No federal or state do-not-call list is loaded on this service: only your own suppression list, if you keep one, is checked, and numbers not on it answer DNC unchecked, never clean.',
    );
    expect(result.stderr).toContain(
      'Note: 2 numbers were not checked against any do-not-call list (the service has none loaded that covers them): DNC unchecked, which is not clean.',
    );
  });

  it('asks whether each number was reassigned with --consent-date, and says no data when nothing can tell', async () => {
    const env = await account(10);
    const json = await scrub(['--json', 'check', '2012345678', '--consent-date', '2024-02-01'], env);
    expect(json.code, json.stderr).toBe(0);
    // No disconnections are imported on this service: no data, never "not reassigned".
    expect(ndjson(json)[0]).toMatchObject({ reassigned: null, reassigned_source: null, credits_deducted: 2 });
    const plain = await scrub(['check', '2012345679', '--consent-date', '2024-02-01'], env);
    expect(lines(plain)[0]!.split('\t').at(-1)).toBe('no data');
    const bad = await scrub(['check', '2012345679', '--consent-date', '1/2/2024'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--consent-date is a date written YYYY-MM-DD');
    expect(await creditsLeft(env)).toBe(6);
  });

  it('prints tab-separated lines, no header, off a terminal', async () => {
    const result = await scrub(['check', ...THREE], funded);

    expect(result.code, result.stderr).toBe(0);
    const [geographic, tollFree, invalid] = lines(result).map((line) => line.split('\t'));
    expect(lines(result)).toHaveLength(3);
    expect(geographic?.[0]).toBe('+12012345678');
    expect(GEOGRAPHIC).toContain(geographic?.[1]);
    expect(tollFree?.slice(0, 2)).toEqual(['+18005551234', 'toll_free']);
    expect(invalid?.[0]).toBe('+11234567890');
    expect(invalid?.[1]).toMatch(/^invalid: Area code 123 /);
    expect(result.stderr.match(/sample data/g)).toHaveLength(1);
  });

  it('prints NDJSON with --json: one object per number, in order, with the input', async () => {
    const result = await scrub(['verify', ...THREE, '--json'], funded);

    expect(result.code, result.stderr).toBe(0);
    const answers = ndjson(result);
    expect(answers.map((answer) => answer.input)).toEqual(THREE);
    expect(GEOGRAPHIC).toContain(answers[0]?.line_type);
    expect(answers[1]).toMatchObject({
      phone_number: '+18005551234',
      line_type: 'toll_free',
      dnc: null,
      dnc_lists_checked: [],
    });
    expect(answers[2]).toMatchObject({
      phone_number: '+11234567890',
      line_type: 'invalid',
      invalid_reason: 'area_code_invalid',
      invalid_message: expect.any(String),
      credits_deducted: 0,
      data_source: 'sample',
      timezones: [],
      callable_now: null,
    });
  });

  it('prints CSV with --csv: a header, then one row per number', async () => {
    const result = await scrub(['verify', ...THREE, '--csv'], funded);

    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = lines(result);
    expect(header).toBe(
      'input,phone_number,line_type,dnc,dnc_sources,dnc_lists_checked,invalid_reason,invalid_message,extension,cached,credits_deducted,credits_remaining,data_source,timezones,callable_now,line_type_source,ported,lists',
    );
    expect(rows).toHaveLength(3);
    // The DNC cell as a bulk result writes it: unchecked without a list, empty for an invalid number.
    expect(rows[0]).toMatch(/^2012345678,\+12012345678,(mobile|landline|voip),unchecked,,,.*,sample,,$/);
    expect(rows[1]).toMatch(/^8005551234,\+18005551234,toll_free,unchecked,,,/);
    expect(rows[2]).toMatch(/^1234567890,\+11234567890,invalid,,,,area_code_invalid,Area code 123 /);
  });

  it('reads one number per line from stdin with -, skipping blank lines', async () => {
    const stdin = ' 2012345678 \r\n\n8005551234\n   \n1234567890';
    const result = await scrub(['verify', '-', '--json', '--fail-on', 'dnc'], funded, { stdin });

    expect(result.code, result.stderr).toBe(0);
    expect(ndjson(result).map((answer) => answer.input)).toEqual(THREE);
  });

  it('exits 5 after printing every answer when one matches --fail-on, and 0 when none does', async () => {
    const matched = await scrub(
      ['--json', 'verify', ...THREE, '--fail-on', 'dnc', '--fail-on', 'invalid'],
      funded,
    );
    expect(matched.code).toBe(5);
    expect(ndjson(matched)).toHaveLength(3);
    expect(matched.stderr).toContain('1 of 3 answers matched --fail-on dnc,invalid');

    const tollFree = await scrub(['verify', ...THREE, '--fail-on', 'voip,toll_free'], funded);
    expect(tollFree.code).toBe(5);

    // The sample data has no do-not-call lists: nothing is DNC, and the valid numbers are unchecked.
    const clean = await scrub(['verify', ...THREE, '--fail-on', 'dnc'], funded);
    expect(clean.code, clean.stderr).toBe(0);
    const unchecked = await scrub(['verify', ...THREE, '--fail-on', 'unchecked'], funded);
    expect(unchecked.code).toBe(5);
    expect(unchecked.stderr).toContain('2 of 3 answers matched --fail-on unchecked');
  });

  it('answers malformed numbers as invalid, with a reason, and charges nothing', async () => {
    const env = await account(5);
    const malformed = ['2.01555E+09', '201-555-012', '+44 20 7946 0958', 'call me', '(123) 456-7890'];

    const result = await scrub(['--json', 'verify', ...malformed], env);

    expect(result.code, result.stderr).toBe(0);
    for (const answer of ndjson(result)) {
      expect(answer, answer.input).toMatchObject({ line_type: 'invalid', credits_deducted: 0 });
      expect(answer.invalid_reason, answer.input).toMatch(/^[a-z_]+$/);
      expect(answer.invalid_message, answer.input).toBeTruthy();
    }
    expect(await creditsLeft(env)).toBe(5);
  });

  it('reports a number the API refuses on stderr, checks the others, and exits 1', async () => {
    const tooLong = '2'.repeat(70);
    const binary = '\u0000\u0001';
    const result = await scrub(['verify', '2012345678', tooLong, binary, '8005551234'], funded);

    expect(result.code).toBe(1);
    expect(lines(result).map((line) => line.split('\t')[0])).toEqual(['+12012345678', '+18005551234']);
    expect(result.stderr).toContain(`error: ${tooLong}: 400`);
    expect(result.stderr).toMatch(/400 The query field "p" contains a NUL character/);
    expect(result.stderr).toContain('2 of 4 numbers could not be checked');
  });

  it('exits 4 when the credits cannot pay for a batch: nothing printed, nothing charged', async () => {
    const env = await account(2);
    const numbers = ['2012345670', '2012345671', '2012345672', '2012345673', '2012345674'];

    const result = await scrub(['--json', 'verify', ...numbers], env);

    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Stopped after 0 answers');
    expect(result.stderr).toContain('this batch needs 5 and the account has 2, enough for 2 of its numbers');
    expect(await creditsLeft(env)).toBe(2);
  });

  it('checks a long list from stdin in batches, printing each as it returns, charged as single checks', async () => {
    const env = await account(3_000);
    const numbers = Array.from({ length: 2_500 }, (_, i) => `201${200 + (i % 700)}${String(1000 + i)}`);
    // Every number twice: each is charged once.
    const stdin = `${[...numbers, ...numbers].join('\n')}\n`;

    const result = await scrub(['--json', 'verify', '-'], env, { stdin });

    expect(result.code, result.stderr).toBe(0);
    const answers = ndjson(result);
    expect(answers.map((answer) => answer.input)).toEqual([...numbers, ...numbers]);
    // One credit per valid number (a few exchanges here are N11 or 555: invalid, free), none for the repeats.
    const valid = answers.slice(0, 2_500).filter((answer) => answer.line_type !== 'invalid').length;
    expect(valid).toBeGreaterThan(2_400);
    // Batches run side by side, so either sighting of a number may be the one that pays: once.
    const paidTwice = numbers.filter(
      (_, i) => (answers[i]?.credits_deducted ?? 0) + (answers[i + 2_500]?.credits_deducted ?? 0) > 1,
    );
    expect(paidTwice).toEqual([]);
    expect(await creditsLeft(env)).toBe(3_000 - valid);
  }, 60_000);

  it('exits 3 with a refused key, and with no credentials at all', async () => {
    const refused = await scrub(['verify', '2012345678'], {
      ...funded,
      SCRUB_API_KEY: `scrub_${'x'.repeat(40)}`,
    });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');

    const none = await scrub(['verify', '2012345678'], {
      SCRUB_CONFIG_DIR: tempConfigDir(),
      SCRUB_API_URL: server.url,
    });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('Not signed in');
  });

  it.each([
    [['verify', '2012345678', '--fail-on', 'spam'], '--fail-on takes dnc, unchecked, mobile'],
    [['--json', 'verify', '2012345678', '--csv'], '--csv and --json cannot be used together'],
    [['verify', '-', '2012345678'], '- reads the numbers from stdin, so it comes alone'],
    [['verify', '2012345678', '--concurrency', '0'], '--concurrency must be a whole number from 1 to 64'],
    [['verify', '2012345678', '--lookup', 'caller'], '--lookup takes carrier'],
    [['verify'], "missing required argument 'phones'"],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const result = await scrub(args, funded);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});

describe('formatting', () => {
  const answer = (fields: Partial<VerifyResult>): VerifyResult => ({
    phone_number: '+12015550123',
    line_type: 'mobile',
    dnc: 0,
    cached: false,
    credits_deducted: 1,
    credits_remaining: 9,
    invalid_reason: null,
    invalid_message: null,
    extension: null,
    dnc_sources: [],
    dnc_lists_checked: ['federal'],
    data_source: 'imported',
    dataset_versions: {},
    timezones: ['America/New_York'],
    callable_now: true,
    callable_reason: null,
    ...fields,
  });

  it('shows the extension, the lists and an unlimited plan', () => {
    const cells = answerCells(
      answer({
        extension: '45',
        dnc: 1,
        dnc_sources: ['federal', 'state:TX'],
        dnc_lists_checked: ['federal', 'state:TX'],
        credits_deducted: undefined,
      }),
    );
    expect(cells).toEqual([
      '+12015550123 ext. 45',
      'mobile',
      '-',
      'yes',
      'federal, state:TX',
      'federal, state:TX',
      'America/New_York',
      'yes',
      'no',
      'unlimited',
    ]);
  });

  it('says what each line type rests on: a table, or a carrier lookup and whether it said ported', () => {
    const source = (fields: Partial<VerifyResult>) => answerCells(answer(fields))[2];
    expect(source({ line_type_source: 'thousands_block', ported: null })).toBe('thousands block');
    expect(source({ line_type_source: 'carrier_lookup', ported: true })).toBe('carrier lookup, ported');
    const failed = {
      status: 'failed' as const,
      provider: 'twilio',
      provider_type: null,
      carrier_name: null,
      looked_up_at: null,
      message: 'Twilio Lookup did not answer within 3000 ms',
    };
    expect(source({ line_type_source: 'exchange', carrier_lookup: failed })).toBe('exchange (lookup failed)');
    expect(source({ line_type_source: null, line_type: 'invalid' })).toBe('-');
    const csv = csvRow('x', answer({ line_type_source: 'carrier_lookup', ported: true }));
    expect(csv.trimEnd().split(',').slice(-3, -1)).toEqual(['carrier_lookup', 'true']);
  });

  it('tells clean, unchecked and invalid apart', () => {
    const dnc = (fields: Partial<VerifyResult>) => answerCells(answer(fields))[3];
    expect(dnc({ dnc: 0 })).toBe('no');
    expect(dnc({ dnc: null, dnc_lists_checked: [] })).toBe('unchecked');
    expect(dnc({ dnc: null, line_type: 'invalid', dnc_lists_checked: [] })).toBe('-');
    expect(csvRow('x', answer({ dnc: null, dnc_lists_checked: [] })).split(',')[3]).toBe('unchecked');
  });

  it('shows the time zones and whether the calling window is open, - when it cannot be told', () => {
    const cells = (fields: Partial<VerifyResult>) => answerCells(answer(fields)).slice(6, 8);
    expect(cells({ timezones: ['America/New_York', 'America/Chicago'], callable_now: false })).toEqual([
      'America/New_York, America/Chicago',
      'no',
    ]);
    expect(cells({ timezones: [], callable_now: null, callable_reason: 'Toll-free numbers...' })).toEqual([
      '-',
      '-',
    ]);
    const csv = csvRow(
      'x',
      answer({ timezones: ['America/New_York', 'America/Chicago'], callable_now: false }),
    );
    expect(csv.trimEnd().split(',').slice(-5, -3)).toEqual(['America/New_York;America/Chicago', 'false']);
  });

  it('writes CSV no spreadsheet runs as a formula, and leaves phone numbers alone', () => {
    const row = (input: string) => csvRow(input, answer({})).split(',')[0];
    expect(row('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(row('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(row('+cmd|calc')).toBe("'+cmd|calc");
    expect(row('+1 (201) 555-0123')).toBe('+1 (201) 555-0123');
    expect(row('-2015550123')).toBe('-2015550123');
  });
});
