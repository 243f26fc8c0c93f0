import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DisconnectList, DncListBuilder, DncSet, dayOf } from '@scrub/engine';
import type { BulkJob, CreditSnapshot, FileList } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  scrub,
  startServerOnDisk,
  tempConfigDir,
} from '../../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'scrub-bulk-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CSV on disk. */
function csvFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Lead lists as people send them: a duplicate (written two ways), a toll-free and an invalid number. */
const LEADS = [
  'Name,Phone,City',
  'Ann,(201) 234-5678,Newark',
  'Bob,201.234.5678,"Newark, NJ"',
  'Cid,800-555-1234,Anywhere',
  'Dee,123-456-7890,Nowhere',
  'Eve,202-333-4444,Washington',
].join('\n');

const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);

describe('scrub bulk: usage', () => {
  const env = {
    SCRUB_CONFIG_DIR: tempConfigDir(),
    SCRUB_API_KEY: 'scrub_unused',
    SCRUB_API_URL: 'http://127.0.0.1:9',
  };
  const leads = csvFile('usage.csv', LEADS);

  it.each([
    ['off a terminal', ['bulk', leads], {}, 'stdin is not a terminal'],
    ['with --no-input', ['--no-input', 'bulk', leads], { stdinIsTTY: true }, '--no-input was given'],
    ['for stdin', ['bulk', '-'], { stdin: LEADS }, 'the CSV comes on stdin'],
  ])('needs --phone-col %s (exit 2), before reading anything', async (_, args, options, why) => {
    const result = await scrub(args, env, options);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: Pass --phone-col with the phone column's header text or number (1 for the first column): ${why}, so scrub cannot ask\n`,
    );
  });

  it.each([
    [['-o', 'out.csv'], '-o, --line-type, --dnc and --callable-now apply to the result: add --wait'],
    [['--dnc', '0'], '-o, --line-type, --dnc and --callable-now apply to the result'],
    [['--callable-now', '1'], '-o, --line-type, --dnc and --callable-now apply to the result'],
    [
      ['--wait', '--callable-now', '1'],
      '--callable-now filters on the Callable Now column: add --columns callable_now',
    ],
    [['--fail-on', 'dnc'], '--fail-on reads the finished job: add --wait'],
    [['--wait', '--fail-on', 'spam'], '--fail-on takes dnc, unchecked, mobile'],
    [['--wait', '--dnc', 'yes'], '--dnc takes 0 (clean numbers only), 1 (DNC numbers only) or all'],
    [
      ['--wait', '--line-type', 'cell'],
      '--line-type takes mobile, landline, voip, toll_free, invalid, unknown_geographic, all (got "cell")',
    ],
    [
      ['--map', 'nickname=Name'],
      '--map takes field=column, the field one of first_name, last_name, full_name',
    ],
    [['--map', 'first_name'], '--map takes field=column'],
    [['--phone-col', '0'], '--phone-col counts columns from 1: the first column is 1'],
    [['--phone-col', '4'], "--phone-col 4 is out of range: the file's first row has 3 columns"],
    [
      ['--phone-col', 'Phone', '--no-header'],
      '--phone-col "Phone" is a column name, but with --no-header the file has none',
    ],
    [['--phone-col', '2', '--map', 'city=9'], '--map city 9 is out of range'],
    [
      ['--columns', 'timezone,weather'],
      '--columns takes timezone, callable_now, line_type_source, comma-separated (got "weather")',
    ],
  ])('refuses %j with exit 2', async (options, message) => {
    const result = await scrub(['bulk', leads, '--phone-col', 'Phone', ...options], env);

    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });

  it('refuses a file that does not exist, and a directory', async () => {
    const missing = await scrub(['bulk', join(dir, 'nope.csv'), '--phone-col', 'Phone'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`error: Cannot read ${join(dir, 'nope.csv')}: no such file\n`);

    const directory = await scrub(['bulk', dir, '--phone-col', 'Phone'], env);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain('is a directory, not a CSV file');
  });

  it('will not read a CSV typed at a terminal', async () => {
    const result = await scrub(['bulk', '-', '--phone-col', 'Phone'], env, { stdinIsTTY: true });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('scrub bulk - reads the CSV from a pipe');
  });

  it('needs credentials (exit 3)', async () => {
    const result = await scrub(['bulk', leads, '--phone-col', 'Phone'], {
      SCRUB_CONFIG_DIR: tempConfigDir(),
    });

    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Not signed in');
  });
});

/**
 * Against the real service in this process, on an embedded database on disk so that
 * `scrub-server credits grant` reaches it as an operator would; the files in a local directory
 * with signed upload URLs, the worker in the same process.
 */
describe('scrub bulk, jobs, files and export against the real server', () => {
  let server: RunningServer;
  let dataDir: string;
  let funded: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scrub-bulk-data-'));
    server = await startServerOnDisk(dataDir);
    funded = await apiKeyAccount(server, dataDir, 1_000);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function creditsLeft(env: NodeJS.ProcessEnv): Promise<CreditSnapshot['credits_remaining']> {
    const result = await scrub(['--json', 'credits'], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as CreditSnapshot).credits_remaining;
  }

  it('scrubs a CSV from stdin in a pipeline: every row back with Line Type and DNC, charged once per unique number', async () => {
    const before = await creditsLeft(funded);

    const result = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait'], funded, { stdin: LEADS });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual([
      'Name,Phone,City,Line Type,DNC',
      // The service has no do-not-call list loaded: no number was checked, none is "clean".
      expect.stringMatching(/^Ann,\(201\) 234-5678,Newark,(mobile|landline|voip),unchecked$/),
      expect.stringMatching(/^Bob,201\.234\.5678,"Newark, NJ",(mobile|landline|voip),unchecked$/),
      'Cid,800-555-1234,Anywhere,toll_free,unchecked',
      // Not a number: nothing to look up on a do-not-call list.
      'Dee,123-456-7890,Nowhere,invalid,',
      expect.stringMatching(/^Eve,202-333-4444,Washington,(mobile|landline|voip),unchecked$/),
    ]);
    // Ann and Bob have the same number; Dee's is not one: three credits.
    expect(await creditsLeft(funded)).toBe((before as number) - 3);
  });

  it('adds Time Zone and Callable Now with --columns, and says in the job when they were evaluated', async () => {
    const output = join(dir, 'with-zones.csv');
    const result = await scrub(
      [
        '--json',
        'bulk',
        '-',
        '--phone-col',
        'Phone',
        '--columns',
        'timezone,callable_now',
        '--wait',
        '-o',
        output,
      ],
      funded,
      { stdin: LEADS },
    );

    expect(result.code, result.stderr).toBe(0);
    // Callable Now is 1 or 0 by the clock when the file was scrubbed; empty when it cannot be told.
    expect(lines(readFileSync(output, 'utf8'))).toEqual([
      'Name,Phone,City,Line Type,DNC,Time Zone,Callable Now',
      expect.stringMatching(/^Ann,\(201\) 234-5678,Newark,\w+,unchecked,America\/New_York,[01]$/),
      expect.stringMatching(/^Bob,201\.234\.5678,"Newark, NJ",\w+,unchecked,America\/New_York,[01]$/),
      'Cid,800-555-1234,Anywhere,toll_free,unchecked,,',
      'Dee,123-456-7890,Nowhere,invalid,,,',
      expect.stringMatching(/^Eve,202-333-4444,Washington,\w+,unchecked,America\/New_York,[01]$/),
    ]);
    const job = JSON.parse(result.stdout) as BulkJob;
    expect(job.columns).toEqual(['timezone', 'callable_now']);
    expect(Date.parse(job.columns_evaluated_at ?? '')).toBeLessThanOrEqual(
      Date.parse(job.completed_at ?? ''),
    );

    // --callable-now keeps the rows inside (1) or outside (0) the window; a number whose window
    // cannot be told (toll free, invalid) is in neither.
    const names = async (value: string) => {
      const kept = await scrub(['export', job.file_reference, '--callable-now', value], funded);
      expect(kept.code, kept.stderr).toBe(0);
      return lines(kept.stdout)
        .slice(1)
        .map((line) => line.split(',')[0]);
    };
    expect([...(await names('1')), ...(await names('0'))].sort()).toEqual(['Ann', 'Bob', 'Eve']);
  });

  it('keeps only numbers checked and clean with --dnc 0: none, without a do-not-call list', async () => {
    const result = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait', '--dnc', '0'], funded, {
      stdin: LEADS,
    });

    expect(result.code, result.stderr).toBe(0);
    // No list covers these numbers, so none is known to be callable; Dee's is not a number at all.
    const names = lines(result.stdout).map((line) => line.split(',')[0]);
    expect(names).toEqual(['Name']);
    // Not a header-only file without a word: stderr says nothing was checked, so nothing is clean.
    expect(result.stderr).toMatch(
      /Note: No row is clean because no number was checked: \d+ rows answered unchecked/,
    );
  });

  it('exits 5 after writing the whole result when a row matches --fail-on, and 0 when none does', async () => {
    const output = join(dir, 'fail-on.csv');
    const matched = await scrub(
      [
        'bulk',
        '-',
        '--phone-col',
        'Phone',
        '--wait',
        '--fail-on',
        'dnc',
        '--fail-on',
        'invalid,toll_free',
        '-o',
        output,
      ],
      funded,
      { stdin: LEADS },
    );

    expect(matched.code, matched.stderr).toBe(5);
    expect(matched.stderr).toBe(
      'error: Rows matched --fail-on dnc,invalid,toll_free: invalid 1, toll_free 1\n',
    );
    // The result is written before the exit code says anything.
    expect(lines(readFileSync(output, 'utf8'))).toHaveLength(6);

    const unchecked = await scrub(
      ['bulk', '-', '--phone-col', 'Phone', '--wait', '--fail-on', 'unchecked'],
      funded,
      {
        stdin: LEADS,
      },
    );
    expect(unchecked.code).toBe(5);
    expect(unchecked.stderr).toContain('Rows matched --fail-on unchecked: unchecked 4');
    expect(lines(unchecked.stdout)).toHaveLength(6);

    // No do-not-call list is loaded, so no row is on one.
    const clean = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait', '--fail-on', 'dnc'], funded, {
      stdin: LEADS,
    });
    expect(clean.code, clean.stderr).toBe(0);
    expect(lines(clean.stdout)).toHaveLength(6);
  });

  it('prints the job without --wait, and follows it with scrub jobs', async () => {
    const leads = csvFile('jobs.csv', LEADS);

    const created = await scrub(
      ['--json', 'bulk', leads, '--phone-col', '2', '--name', 'Spring leads.csv'],
      funded,
    );

    expect(created.code, created.stderr).toBe(0);
    const job = JSON.parse(created.stdout) as BulkJob;
    expect(job).toMatchObject({ filename: 'Spring leads.csv', status: 'queued', total_rows: 5 });

    const waited = await scrub(['jobs', 'wait', job.job_id], funded);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(new RegExp(`^Job +${job.job_id}\n`));
    expect(waited.stdout).toMatch(/Status +completed/);
    expect(waited.stdout).toMatch(/Duplicates +1\n/);
    expect(waited.stdout).toMatch(/Credits +5 charged, 2 given back \(1 duplicates, 1 invalid\), net 3\n/);
    expect(waited.stdout).toMatch(/Line types +.*toll_free 1/);
    expect(waited.stdout).toMatch(/DNC +unchecked \(no list covers them\) 4\n/);

    const shown = JSON.parse((await scrub(['--json', 'jobs', 'show', job.job_id], funded)).stdout) as BulkJob;
    expect(shown).toMatchObject({
      job_id: job.job_id,
      status: 'completed',
      duplicates: 1,
      credits_reversed: 2,
    });
  });

  it('lists the jobs in scrub files, and exports results filtered by line type and DNC', async () => {
    const leads = csvFile('export-me.csv', LEADS);
    const created = await scrub(['--json', 'bulk', leads, '--phone-col', 'Phone'], funded);
    const job = JSON.parse(created.stdout) as BulkJob;
    expect((await scrub(['jobs', 'wait', job.job_id], funded)).code).toBe(0);

    const listed = await scrub(['files', '--search', 'export-me'], funded);
    expect(listed.code, listed.stderr).toBe(0);
    expect(lines(listed.stdout)).toHaveLength(1);
    const cells = lines(listed.stdout)[0]?.split('\t');
    expect(cells).toEqual([
      'export-me.csv',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      'completed',
      '5',
      '1',
      '5 (2 given back: 1 duplicates, 1 invalid; net 3)',
      job.file_reference,
      // The day its upload and result are deleted (SCRUB_FILE_RETENTION_DAYS after the upload).
      expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    ]);
    const table = await scrub(
      ['files', '--search', 'export-me'],
      { ...funded, NO_COLOR: '1' },
      { tty: true },
    );
    expect(table.stdout).toMatch(
      /│ File name +│ Uploaded at +│ Status +│ Total rows +│ Duplicates +│ Credits charged +│ Reference +│ Expires +│/,
    );
    expect(table.stdout).toContain(job.file_reference);
    expect(table.stderr).toBe('Page 1 of 1 (1 file)\n');
    const json = JSON.parse(
      (await scrub(['--json', 'files', '--search', 'export-me'], funded)).stdout,
    ) as FileList;
    expect(json).toMatchObject({ page: 1, total_pages: 1, total_files_count: 1 });

    const tollFree = await scrub(['export', job.file_reference, '--line-type', 'toll_free'], funded);
    expect(tollFree.code, tollFree.stderr).toBe(0);
    expect(lines(tollFree.stdout)).toEqual([
      'Name,Phone,City,Line Type,DNC',
      'Cid,800-555-1234,Anywhere,toll_free,unchecked',
    ]);

    const either = await scrub(['export', job.file_reference, '--line-type', 'toll_free,invalid'], funded);
    expect(lines(either.stdout).map((line) => line.split(',')[0])).toEqual(['Name', 'Cid', 'Dee']);

    const onDnc = await scrub(['export', job.file_reference, '--dnc', '1'], funded);
    expect(lines(onDnc.stdout)).toEqual(['Name,Phone,City,Line Type,DNC']);

    // No list was loaded: the Clean filter keeps nothing, and says it is because nothing was checked.
    const clean = await scrub(['export', job.file_reference, '--dnc', '0'], funded);
    expect(lines(clean.stdout)).toEqual(['Name,Phone,City,Line Type,DNC']);
    expect(clean.stderr).toMatch(
      /^Note: No row is clean because no number was checked: \d+ rows answered unchecked/,
    );

    // Scrubbed without the callable_now column: the calling-window filter is refused, not ignored.
    const noWindow = await scrub(['export', job.file_reference, '--callable-now', '1'], funded);
    expect(noWindow.code).toBe(1);
    expect(noWindow.stderr).toContain('This file has no Callable Now column');

    const output = join(dir, 'exported.csv');
    const saved = await scrub(['export', job.file_reference, '--dnc', 'all', '-o', output], funded);
    expect(saved).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(lines(readFileSync(output, 'utf8'))).toHaveLength(6);

    // Public, as the file detail page is: the reference is enough.
    const original = await scrub(['export', job.file_reference, '--upload'], {
      SCRUB_CONFIG_DIR: tempConfigDir(),
      SCRUB_API_URL: server.url,
    });
    expect(original.stdout).toBe(LEADS);

    // Export's Email: the links go by mail, the owner only, the filters carried in the result link.
    const mailed = await scrub(
      ['export', job.file_reference, '--dnc', '0', '--email', 'ops@example.com, lead@example.com'],
      funded,
    );
    expect(mailed).toMatchObject({ code: 0, stdout: 'Sent to ops@example.com, lead@example.com.\n' });
    const mails = await server.database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'text_body'])
      .where('kind', '=', 'file_shared')
      .execute();
    expect(mails.map((mail) => mail.to_address).sort()).toEqual(['lead@example.com', 'ops@example.com']);
    expect(mails[0]?.text_body).toContain(`${server.url}/files/${job.file_reference}/result?dnc=0`);
    const stranger = await apiKeyAccount(server, dataDir, 0);
    const refused = await scrub(['export', job.file_reference, '--email'], stranger);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: 404 No file found/);
  });

  it('pages through scrub files, or lists every file with --all', async () => {
    const env = await apiKeyAccount(server, dataDir, 100);
    for (const name of ['a.csv', 'b.csv', 'c.csv']) {
      const result = await scrub(['bulk', csvFile(name, LEADS), '--phone-col', 'Phone'], env);
      expect(result.code, result.stderr).toBe(0);
    }

    const second = await scrub(['files', '--limit', '2', '--page', '2'], env);
    expect(lines(second.stdout).map((line) => line.split('\t')[0])).toEqual(['a.csv']);
    const every = await scrub(['files', '--limit', '1', '--all'], env);
    expect(lines(every.stdout).map((line) => line.split('\t')[0])).toEqual(['c.csv', 'b.csv', 'a.csv']);
    const ndjson = await scrub(['--json', 'files', '--limit', '1', '--all'], env);
    expect(lines(ndjson.stdout).map((line) => JSON.parse(line).file_name)).toEqual([
      'c.csv',
      'b.csv',
      'a.csv',
    ]);
  });

  it('asks for the phone column at a terminal, showing the first rows', async () => {
    const leads = csvFile('asked.csv', LEADS);

    const result = await scrub(['--json', 'bulk', leads], funded, { answers: [1, true] });

    expect(result.code, result.stderr).toBe(0);
    expect(result.prompts).toEqual(['Which column holds the phone numbers?', 'Process the records?']);
    expect(result.stderr).toContain('Found 5 phone numbers (requires 5 credits).');
    expect(result.stderr).toMatch(/│ Name +│ Phone +│ City +│/);
    expect(result.stderr).toContain('│ Cid  │ 800-555-1234   │ Anywhere   │');
    expect(JSON.parse(result.stdout)).toMatchObject({ filename: 'asked.csv', status: 'queued' });
  });

  it('at a terminal, shows the quote and charges nothing when the answer is no; --yes skips the question', async () => {
    const leads = csvFile('quoted.csv', LEADS);
    // An account of its own: jobs queued by the tests before this one settle (and give back
    // duplicates' credits) on the shared one at any moment.
    const quoted = await apiKeyAccount(server, dataDir, 100);
    const before = JSON.parse((await scrub(['--json', 'credits'], quoted)).stdout) as CreditSnapshot;

    const declined = await scrub(['bulk', leads, '--phone-col', 'Phone'], quoted, { answers: [false] });

    expect(declined.code).toBe(1);
    expect(declined.prompts).toEqual(['Process the records?']);
    expect(declined.stderr).toMatch(/Found 5 phone numbers \(requires 5 credits\)\. You have [\d,]+ credits/);
    expect(declined.stderr).toMatch(/nothing was charged/);
    const after = JSON.parse((await scrub(['--json', 'credits'], quoted)).stdout) as CreditSnapshot;
    expect(after.credits).toBe(before.credits);

    const yes = await scrub(['--json', 'bulk', leads, '--phone-col', 'Phone', '--yes'], quoted, {
      answers: [],
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.prompts).toEqual([]);
  });

  it('--consent-col is refused while no disconnect file is imported, then adds the Reassigned column at its price', async () => {
    const consented = csvFile(
      'consent.csv',
      'Name,Phone,Consent\nAnn,(201) 234-5678,2024-02-01\nBob,202-333-4444,2/1/2024\n',
    );
    const account = await apiKeyAccount(server, dataDir, 100);

    // Nothing to answer from: refused before anything is made or charged.
    const refused = await scrub(
      ['bulk', consented, '--phone-col', 'Phone', '--consent-col', 'Consent', '--wait', '--yes'],
      account,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('no reassigned-number data is imported on this service');
    expect(refused.stderr).toContain('Nothing was charged');

    // As `scrub-server data import disconnects FILE --as-of 2024-06-30` leaves it: Ann's number was
    // disconnected after her consent; the file says nothing of Bob's.
    const { ref } = server.referenceData;
    const before = ref.current();
    ref.swap({
      ...before,
      disconnects: DisconnectList.build([[2012345678, dayOf('2024-03-01')]], {
        version: 'rnd-2024-06',
        asOf: '2024-06-30',
        from: '2024-01-01',
      }),
    });
    try {
      // The reassigned-number answer costs 1 credit on this service: 2 a record.
      const declined = await scrub(
        ['bulk', consented, '--phone-col', 'Phone', '--consent-col', 'Consent'],
        account,
        { answers: [false] },
      );
      expect(declined.stderr).toContain(
        'Found 2 phone numbers (requires 4 credits, 2 credits each with the reassigned-number check).',
      );

      const streamed = await scrub(
        ['bulk', consented, '--phone-col', 'Phone', '--consent-col', 'Consent', '--wait', '--yes'],
        account,
      );
      expect(streamed.code, streamed.stderr).toBe(0);
      expect(lines(streamed.stdout)).toEqual([
        'Name,Phone,Consent,Line Type,DNC,Reassigned',
        expect.stringMatching(/^Ann,\(201\) 234-5678,2024-02-01,\w+,unchecked,1$/),
        expect.stringMatching(/^Bob,202-333-4444,2\/1\/2024,\w+,unchecked,0$/),
      ]);

      const queued = await scrub(
        ['--json', 'bulk', consented, '--phone-col', '2', '--consent-col', '3', '--yes'],
        account,
      );
      expect(queued.code, queued.stderr).toBe(0);
      expect(JSON.parse(queued.stdout)).toMatchObject({
        consent_col: 2,
        credits_per_record: 2,
        credits_charged: 4,
      });
    } finally {
      ref.swap(before);
    }
  });

  it('--lookup carrier is refused where the service offers no lookups, and never streams', async () => {
    const leads = csvFile('lookup.csv', LEADS);
    const account = await apiKeyAccount(server, dataDir, 10);
    const refused = await scrub(
      ['bulk', leads, '--phone-col', 'Phone', '--lookup', 'carrier', '--wait', '--yes'],
      account,
    );
    expect(refused.code).not.toBe(0);
    // Refused at the queued job's creation (a streamed job would be refused for another reason).
    expect(refused.stderr).toContain('Carrier lookups are not offered by this service');
    expect(refused.stderr).toContain('Nothing was charged');
    const bad = await scrub(['bulk', leads, '--phone-col', 'Phone', '--lookup', 'cnam'], account);
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.stderr).toContain('--lookup takes carrier');
  });

  it('names the operator lists the result will flag before asking to spend', async () => {
    const leads = csvFile('lists.csv', LEADS);
    const account = await apiKeyAccount(server, dataDir, 10);
    const { ref } = server.referenceData;
    const before = ref.current();
    const builder = new DncListBuilder('list:litigators');
    builder.add(2012345678);
    ref.swap({ ...before, lists: new DncSet([builder.build('litigators-v1', '2026-11-01')]) });
    try {
      const declined = await scrub(
        ['bulk', leads, '--phone-col', 'Phone', '--lists', 'litigators'],
        account,
        {
          answers: [false],
        },
      );
      expect(declined.stderr).toContain('Operator lists flagged: litigators.');
    } finally {
      ref.swap(before);
    }
  });

  it('shows upload and processing progress on a terminal, and writes the result to -o', async () => {
    const leads = csvFile('progress.csv', LEADS);
    const output = join(dir, 'progress-scrubbed.csv');

    // A mapping goes by a queued job (the streaming route takes none).
    const result = await scrub(
      ['bulk', leads, '--phone-col', 'Phone', '--map', 'first_name=Name', '--wait', '-o', output],
      { ...funded, NO_COLOR: '1' },
      { tty: true },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Uploading  [████████████████████████] 100%');
    expect(result.stderr).toMatch(/Job [\w-]+ queued \(Ctrl-C stops waiting, not the job\)/);
    expect(result.stderr).toContain('Processing [████████████████████████] 100%  5 of 5 rows');
    expect(result.stderr.endsWith('\r\u001b[K')).toBe(true);
    expect(result.stdout).toMatch(/Status +completed/);
    expect(lines(readFileSync(output, 'utf8'))).toHaveLength(6);
  });

  it('reads a file without a header, by column number, with a mapping', async () => {
    const headless = csvFile(
      'headless.csv',
      'Ann,2012345678,ann@example.com\nBob,8005551234,bob@example.com\n',
    );

    const result = await scrub(
      [
        'bulk',
        headless,
        '--no-header',
        '--phone-col',
        '2',
        '--map',
        'first_name=1',
        '--map',
        'email=3',
        '--wait',
      ],
      funded,
    );

    expect(result.code, result.stderr).toBe(0);
    // The result names the columns it was not given names for.
    expect(lines(result.stdout)).toEqual([
      'Column 1,Column 2,Column 3,Line Type,DNC',
      expect.stringMatching(/^Ann,2012345678,ann@example\.com,(mobile|landline|voip),unchecked$/),
      'Bob,8005551234,bob@example.com,toll_free,unchecked',
    ]);
  });

  it('names the mapped columns with the standard headers with --mapped-headers, the cells as sent', async () => {
    const headless = csvFile('named.csv', 'Ann,2012345678,ann@example.com\nBob,8005551234,bob@example.com\n');
    const args = [
      'bulk',
      headless,
      '--no-header',
      '--phone-col',
      '2',
      '--map',
      'first_name=1',
      '--map',
      'email=3',
    ];
    const result = await scrub([...args, '--mapped-headers', '--wait'], funded);

    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)[0]).toBe('First Name,Column 2,Email,Line Type,DNC');
    expect(lines(result.stdout)[2]).toBe('Bob,8005551234,bob@example.com,toll_free,unchecked');
    const alone = await scrub(['bulk', headless, '--phone-col', 'Phone', '--mapped-headers'], funded);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--mapped-headers names the columns given with --map');
  });

  it("refuses a submit the credits cannot cover with the wizard's words, exit 4, charging nothing", async () => {
    const poor = await apiKeyAccount(server, dataDir, 2);

    const result = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait'], poor, { stdin: LEADS });

    // Streamed, it is refused at the first rows, before the whole file is known.
    expect(result).toMatchObject({ code: 4, stdout: '' });
    expect(result.stderr).toMatch(/^error: You need at least [45] credits but only have 2\.\n$/);
    expect(await creditsLeft(poor)).toBe(2);
    // Queued, it is refused at the submit, with the wizard's words: exit 4 too.
    const json = await scrub(['--json', 'bulk', '-', '--phone-col', 'Phone'], poor, { stdin: LEADS });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'insufficient_credits', message: 'You need 5 credits but only have 2.' },
    });
    // At a terminal, the quote refuses it before the question: exit 4 too.
    const asked = await scrub(['bulk', csvFile('poor.csv', LEADS), '--phone-col', 'Phone'], poor, {
      answers: [],
    });
    expect(asked).toMatchObject({ code: 4, prompts: [] });
    expect(asked.stderr).toMatch(/error: You need 5 credits but only have 2\. Buy more with scrub buy\.\n$/);
    expect(await creditsLeft(poor)).toBe(2);
  });

  it('says why a CSV cannot be read (exit 1), free', async () => {
    const before = await creditsLeft(funded);

    const empty = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait'], funded, { stdin: '' });
    const noColumn = await scrub(['bulk', '-', '--phone-col', 'Tel', '--wait'], funded, { stdin: LEADS });

    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^error: 400 Csv is empty/);
    expect(noColumn.code).toBe(1);
    expect(noColumn.stderr).toMatch(/^error: 400 No column "Tel" in the header row/);
    expect(await creditsLeft(funded)).toBe(before);
  });

  it('answers an unknown job or file reference with exit 1', async () => {
    const job = await scrub(['jobs', 'show', 'no-such-job'], funded);
    expect(job.code).toBe(1);
    expect(job.stderr).toMatch(/^error: 404 /);

    const file = await scrub(['export', 'NoSuchReference0000000000000000'], funded);
    expect(file.code).toBe(1);
    expect(file.stderr).toMatch(/^error: 404 No file found/);
  });
});
