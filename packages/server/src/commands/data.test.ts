import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPhone, dataSourceOf } from '@scrub/engine';
import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CO_CODE_FILE,
  exchangeNumbers,
  fullListText,
  NUMBER_OVERRIDES_CSV,
  OCN_LINE_TYPES_CSV,
  RELEASED_TODAY,
  THOUSANDS_BLOCK_FILE,
  writeFixture,
  zipOf,
} from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { ensureProfile } from '../account/profiles.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import type { DatasetStatus } from '../reference-data/data-status.js';
import { dncFor, ReferenceData } from '../reference-data/reference-data.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { DataCommandError, dataCommand } from './data.js';

// Opened only by the tests that look accounts up: PGlite takes a second or two to start.
let database: DatabaseHandle | null;
let config: ServerConfig;
let files: string;
let out: string;
let err: string;

beforeEach(() => {
  database = null;
  config = loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-data-'), SCRUB_PORT: '0' });
  files = tempDir('scrub-files-');
  out = '';
  err = '';
});
afterEach(() => database?.close());

async function openTestDatabase(): Promise<DatabaseHandle> {
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
  return database;
}

const allCommands = (command: Command): Command[] => [command, ...command.commands.flatMap(allCommands)];

/** `scrub-server data ...` on this test's data directory; the database, if any, is the test's own. */
async function run(...args: string[]): Promise<string> {
  const command = dataCommand({
    config: () => config,
    open: async () => {
      if (database === null) throw new Error('this test opened no database');
      return { ...database, close: async () => {} };
    },
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    color: false,
  });
  for (const sub of allCommands(command)) {
    sub.exitOverride().configureOutput({
      writeErr: (text) => {
        err += text;
      },
    });
  }
  const before = out.length;
  await command.parseAsync(dated(args), { from: 'user' });
  return out.slice(before);
}

/**
 * Federal and state imports need a release date: these tests give today's unless they give one
 * (or `--released none`, to import without one).
 */
function dated(args: string[]): string[] {
  if (args[0] !== 'import' || !['ftc', 'ftc-changes', 'state'].includes(args[1]!)) return args;
  const at = args.indexOf('--released');
  if (at === -1) return [...args, '--released', RELEASED_TODAY];
  return args[at + 1] === 'none' ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
}

const file = (name: string, text: string | Buffer, encoding: BufferEncoding = 'utf8') =>
  writeFixture(files, name, text, encoding);

async function status(): Promise<DatasetStatus[]> {
  return JSON.parse(await run('status', '--json')).datasets;
}

const numbers = exchangeNumbers(201234, 4);
const line = (number: number) => `${String(number).slice(0, 3)},${String(number).slice(3)}`;

describe('scrub-server data import: exchange data', () => {
  it('stages the first part, builds once CO codes and OCN line types are both in, and rebuilds with each new part', async () => {
    const staged = await run('import', 'co-codes', file('CoCodes.txt', CO_CODE_FILE, 'latin1'));
    expect(staged).toBe(
      [
        'Staged co-codes; the exchange data is not built yet.',
        '  co-codes CoCodes.txt (version 2025-11-26): 6 rows read, 6 used; 1 not in service',
        'Exchange data is built from the CO code file and the OCN line types together: import ocn-line-types next (scrub-server data import ocn-line-types <file>). Until then, line types come from sample data.',
        '',
      ].join('\n'),
    );
    expect(await status()).toMatchObject([
      { dataset: 'exchange', state: 'sample', version: 'sample-v1', source: 'sample' },
      {
        dataset: 'exchange',
        state: 'staged',
        files: [{ kind: 'co-codes', name: 'CoCodes.txt' }],
        missing: ['ocn-line-types'],
      },
      { dataset: 'federal', state: 'none' },
    ]);

    const built = await run('import', 'ocn-line-types', file('ocn.csv', OCN_LINE_TYPES_CSV));
    expect(built).toMatch(
      /^Imported exchange version co:2025-11-26,ocn:[0-9a-f]{12}: 5 exchanges in service, 0 blocks, 0 numbers \(1\.0 MB\)\.\n/,
    );
    expect(built).toContain('  ocn-line-types ocn.csv (version');
    expect(built).toContain(
      '  co-codes CoCodes.txt (version 2025-11-26): 6 rows read, 6 used; 1 whose OCN has no line type',
    );

    await run('import', 'thousands-blocks', file('Blocks.txt', THOUSANDS_BLOCK_FILE, 'latin1'));
    const withNumbers = await run('import', 'number-overrides', file('ported.csv', NUMBER_OVERRIDES_CSV));
    expect(withNumbers).toMatch(
      /^Imported exchange version co:2025-11-26,blocks:[0-9a-f]{12},ocn:[0-9a-f]{12},numbers:[0-9a-f]{12}: /,
    );
    expect(withNumbers).toMatch(/\nReplaces version co:2025-11-26,blocks:\S+, kept for one step\.\n/);

    const [exchange] = await status();
    expect(exchange).toMatchObject({
      dataset: 'exchange',
      state: 'imported',
      source: 'imported',
      counts: { blocks: 3, numbers: 2 },
      files: [
        { kind: 'co-codes', name: 'CoCodes.txt', version: '2025-11-26', mode: 'strict' },
        { kind: 'ocn-line-types', name: 'ocn.csv' },
        { kind: 'thousands-blocks', name: 'Blocks.txt' },
        { kind: 'number-overrides', name: 'ported.csv' },
      ],
    });

    const data = await ReferenceData.open(config, false);
    try {
      const answer = (phone: string) => checkPhone(phone, data.current()).lineType;
      expect(dataSourceOf(data.current())).toBe('imported');
      expect(answer('201-234-5678')).toBe('mobile');
      expect(answer('201-236-7123')).toBe('voip');
      expect(answer('201-236-5123')).toBe('mobile');
      expect(answer('201-236-5000')).toBe('landline');
      expect(answer('201-234-0001')).toBe('voip');
    } finally {
      await data.close();
    }
  });

  it('refuses a bad part with its line numbers, and the exchange data stays as it was', async () => {
    await run('import', 'ocn-line-types', file('ocn.csv', OCN_LINE_TYPES_CSV));
    await run('import', 'co-codes', file('CoCodes.txt', CO_CODE_FILE, 'latin1'));
    const [before] = await status();

    const bad = `${THOUSANDS_BLOCK_FILE}Northeast,NJ,201,23,4,AS,01/01/2020,X,9001,Co\n`;
    const refused = run('import', 'thousands-blocks', file('Blocks.txt', bad, 'latin1'));
    await expect(refused).rejects.toThrow(DataCommandError);
    expect(err).toBe(
      [
        'Blocks.txt: refused (strict mode), 1 problem:',
        '  line 6: block 201-23-4 is not an area code and exchange (200-999) and a block digit (0-9)',
        '--mode partial skips bad rows instead (a broken header or format is refused either way).',
        '',
      ].join('\n'),
    );
    expect((await status())[0]).toEqual(before);

    const partial = await run(
      'import',
      'thousands-blocks',
      file('Blocks.txt', bad, 'latin1'),
      '--mode',
      'partial',
    );
    expect(partial).toContain('  thousands-blocks Blocks.txt (version ');
    expect(partial).toContain('    1 bad row skipped:\n      line 6: block 201-23-4 is not');
  });
});

describe('scrub-server data import: do-not-call lists', () => {
  it('imports the FTC full list (zipped), applies change lists to it, and says what changed', async () => {
    const zip = zipOf([{ name: 'dnc-201.txt', text: fullListText(numbers.slice(0, 3)) }]);
    const imported = await run('import', 'ftc', file('dnc-full.zip', zip), '--version', '2025-06-01');
    expect(imported).toBe(
      [
        `Imported federal version 2025-06-01, released ${RELEASED_TODAY}: 3 numbers in 1 exchange (8 KB).`,
        '  ftc dnc-full.zip (version 2025-06-01): 3 rows read, 3 used',
        'A running server switches to it within a few seconds.',
        '',
      ].join('\n'),
    );

    const changes = file(
      'changes.txt',
      `${line(numbers[0]!)},D,2025-06-02\n${line(numbers[3]!)},A,2025-06-02\n`,
    );
    const changed = await run('import', 'ftc-changes', changes, '--version', '2025-06-02');
    expect(changed).toContain(
      '  ftc-changes changes.txt (version 2025-06-02): 2 rows read, 2 used; 1 added (0 already listed), 1 deleted (0 not listed)',
    );
    expect(changed).toContain('Replaces version 2025-06-01, kept for one step.');

    // A layout other than the default: all ten digits in one column, a file of deletions only.
    const deletions = file('deleted.csv', `number\n${numbers[1]}\n`);
    await run(
      'import',
      'ftc-changes',
      deletions,
      '--area-code-column',
      'none',
      '--number-column',
      '0',
      '--flag-column',
      'none',
      '--action',
      'delete',
      '--header',
    );
    expect(await status()).toMatchObject([
      { dataset: 'exchange', state: 'sample' },
      { dataset: 'federal', state: 'imported', counts: { numbers: 2, exchanges: 1 } },
    ]);
  });

  it('imports permanent disconnections with their as-of date, and refuses them without it', async () => {
    const csv = file(
      'disconnects.csv',
      'number,disconnected\n201-234-0100,2024-03-01\n2012340101,2024-05-01\n',
    );
    await expect(run('import', 'disconnects', csv)).rejects.toThrow(
      /needs the date the file is complete to.*--as-of/,
    );
    await expect(run('import', 'disconnects', csv, '--as-of', '2024-04-30')).rejects.toThrow(
      /Import refused/,
    );
    expect(err).toContain("after the file's as-of date 2024-04-30");
    const printed = await run('import', 'disconnects', csv, '--as-of', '2024-06-30', '--from', '2024-01-01');
    expect(printed).toContain('Imported disconnects version');
    expect(printed).toContain('2 disconnected numbers, from 2024-01-01 to 2024-06-30');
    expect((await status()).find((row) => row.dataset === 'disconnects')).toMatchObject({
      counts: { numbers: 2 },
      as_of: '2024-06-30',
      from: '2024-01-01',
    });
  });

  it('refuses change lists while there is no federal list', async () => {
    await expect(run('import', 'ftc-changes', file('c.txt', `${line(numbers[0]!)},A\n`))).rejects.toThrow(
      /no federal list to apply changes to: import the full list first/,
    );
  });

  it('refuses a bad file with its line numbers and keeps the live list; partial mode skips the bad rows', async () => {
    await run('import', 'ftc', file('v1.txt', fullListText(numbers.slice(0, 2))), '--version', 'v1');
    const bad = `${line(numbers[0]!)}\n201-234-0000\n${line(numbers[1]!)}\n101,2345678\n`;
    await expect(run('import', 'ftc', file('v2.txt', bad), '--version', 'v2')).rejects.toThrow(
      'Import refused: nothing was imported, and the data the service answers from is unchanged.',
    );
    expect(err).toContain('v2.txt: refused (strict mode), 2 problems:\n');
    expect(err).toContain('  line 2: expected "AAA,NNNNNNN"');
    expect(err).toContain('  line 4: area code 101 in "101,2345678" does not exist');
    expect((await status())[1]).toMatchObject({ dataset: 'federal', version: 'v1', counts: { numbers: 2 } });

    const partial = await run(
      'import',
      'ftc',
      file('v2.txt', bad),
      '--version',
      'v2',
      '--mode',
      'partial',
      '--json',
    );
    expect(JSON.parse(partial)).toMatchObject({
      status: 'imported',
      dataset: 'federal',
      version: 'v2',
      previous_version: 'v1',
      reports: [
        {
          kind: 'ftc',
          source: 'v2.txt',
          mode: 'partial',
          rows_read: 4,
          rows_used: 2,
          problem_count: 2,
          problems: [expect.objectContaining({ line: 2 }), expect.objectContaining({ line: 4 })],
        },
      ],
    });
  });

  it('imports state lists by column and internal lists by account e-mail', async () => {
    const { db } = await openTestDatabase();
    const profile = await ensureProfile(db, {
      sub: 'owner',
      email: 'Owner@Example.com',
      name: null,
      role: 'User',
    });
    await run(
      'import',
      'state',
      file('tx.csv', `name,Phone\nPat,(201) 234-0000\nSam,201.234.7919\n`),
      '--state',
      'tx',
      '--column',
      'phone',
    );
    const imported = await run(
      'import',
      'internal',
      file('mine.csv', `${numbers[2]}\n`),
      '--account',
      'owner@example.com',
    );
    expect(imported).toMatch(
      new RegExp(`^Imported internal:${profile.id} version [0-9a-f]{12}: 1 number in 1 exchange`),
    );

    const rows = await status();
    expect(rows.map((row) => row.dataset)).toEqual([
      'exchange',
      'federal',
      `internal:${profile.id}`,
      'state:TX',
    ]);
    expect(rows[2]).toMatchObject({
      account: { id: profile.id, email: 'Owner@Example.com' },
      counts: { numbers: 1 },
    });
    expect(await run('status')).toContain(`internal:${profile.id}`);

    const data = await ReferenceData.open(config, false);
    try {
      const snapshot = data.current();
      expect(snapshot.dnc.sources(numbers[0]!)).toEqual(['state:TX']);
      expect(dncFor(snapshot, profile.id).sources(numbers[2]!)).toEqual([`internal:${profile.id}`]);
    } finally {
      await data.close();
    }

    await expect(
      run('import', 'internal', file('x.csv', '2012345678\n'), '--account', 'nobody@example.com'),
    ).rejects.toThrow(/No account with the e-mail nobody@example.com has used Scrub yet/);
  });

  it('says when the first line of a CSV list looks like a header', async () => {
    await expect(
      run('import', 'state', file('tx.csv', 'phone\n2012340000\n'), '--state', 'TX'),
    ).rejects.toThrow(DataCommandError);
    expect(err).toContain('  line 1: ');
    expect(err).toContain('Line 1 may be a header: add --header, or name the column with --column <name>.');
  });
});

describe('scrub-server data status', () => {
  it('prints a table of every dataset, saying when line types are sample data', async () => {
    await run('import', 'ftc', file('dnc.txt', fullListText(numbers)), '--version', '2025-06-01');
    const table = await run('status');
    const rows = table.split('\n');
    expect(rows[1]).toMatch(/│ Dataset +│ Version +│ Source +│ Contents +│ Released +│ Imported +│ Size +│/);
    expect(table).toMatch(
      /│ exchange +│ sample-v1 +│ sample +│ [\d,]+ exchanges in service, [\d,]+ blocks, [\d,]+ numbers +│ - +│ generated +│ 15\.1 MB +│/,
    );
    expect(table).toMatch(
      new RegExp(
        `│ federal +│ 2025-06-01 +│ imported +│ 4 numbers in 1 exchange +│ ${RELEASED_TODAY} +│ \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC +│ 8 KB +│`,
      ),
    );
    expect(table).toMatch(/│ +│ +│ +│ +│ 0 days old +│ +│ +│/);
    expect(rows).toContain(
      'Line types come from generated sample data: every answer says data_source "sample".',
    );
  });

  it("shows each list's release date and age, and calls stale a list past the maximum age or without a date", async () => {
    await run('import', 'ftc', file('dnc.txt', fullListText(numbers)), '--version', 'v1');
    await run('import', 'state', file('tx.csv', '5127360100\n'), '--state', 'TX', '--released', '2025-01-02');
    // A federal list imported before release dates were recorded: its meta has none.
    const manifest = JSON.parse(readFileSync(join(config.dataDir, 'datasets', 'manifest.json'), 'utf8'));
    const metaPath = join(config.dataDir, 'datasets', manifest.datasets.federal.live, 'meta.json');
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    delete meta.releasedOn;
    writeFileSync(metaPath, JSON.stringify(meta));

    const rows = await status();
    expect(rows.find((row) => row.dataset === 'federal')).toMatchObject({
      released_on: null,
      age_days: null,
      stale: true,
    });
    expect(rows.find((row) => row.dataset === 'state:TX')).toMatchObject({
      released_on: '2025-01-02',
      age_days: expect.any(Number),
      stale: true,
    });
    const table = await run('status');
    expect(table).toMatch(/│ federal +│ v1 +│ imported +│ 4 numbers in 1 exchange +│ not recorded +│/);
    expect(table).toMatch(/│ state:TX +│ .+│ 2025-01-02 +│/);
    expect(table).toContain(
      'Stale: federal, state:TX are past 31 days (SCRUB_DNC_MAX_AGE_DAYS) or has no release date recorded (federal): numbers not on them answer unchecked, not clean',
    );
  });
});

describe('scrub-server data import: the FTC subscription account number', () => {
  it('records --ftc-account (else SCRUB_FTC_ACCOUNT) with the federal list, and data status shows it with the history', async () => {
    await run(
      'import',
      'ftc',
      file('dnc.txt', fullListText(numbers)),
      '--version',
      'v1',
      '--ftc-account',
      'SAN-12345',
    );
    expect((await status()).find((row) => row.dataset === 'federal')).toMatchObject({
      ftc_account: 'SAN-12345',
    });
    // A change list keeps the live list's account unless given another.
    await run('import', 'ftc-changes', file('c1.txt', `${line(2012349999)},A\n`), '--version', 'v2');
    expect((await status()).find((row) => row.dataset === 'federal')).toMatchObject({
      ftc_account: 'SAN-12345',
    });
    config = { ...config, registryInbox: { ...config.registryInbox, ftcAccount: 'ORG-9' } };
    await run('import', 'ftc', file('dnc2.txt', fullListText(numbers.slice(1))), '--version', 'v3');

    const table = await run('status');
    expect(table).toMatch(/│ federal +│ v3 +│ imported +│ 3 numbers in 1 exchange +│/);
    expect(table).toMatch(/│ +│ +│ +│ FTC account ORG-9 +│/);
    expect(table).toContain('Last imports (newest first; 3 kept):');
    expect(table).toMatch(
      /UTC {2}federal v3 from data import: dnc2\.txt, released \d{4}-\d\d-\d\d, FTC account ORG-9/,
    );
    const { history } = JSON.parse(await run('status', '--json'));
    expect(
      history.map((entry: { version: string; via: string; ftc_account: string }) => [
        entry.version,
        entry.via,
        entry.ftc_account,
      ]),
    ).toEqual([
      ['v3', 'command', 'ORG-9'],
      ['v2', 'command', 'SAN-12345'],
      ['v1', 'command', 'SAN-12345'],
    ]);
  });

  it('refuses an account number that is not one', async () => {
    await expect(
      run('import', 'ftc', file('dnc.txt', fullListText(numbers)), '--ftc-account', 'no spaces'),
    ).rejects.toThrow(/--ftc-account "no spaces" is not a subscription account number/);
    expect((await status()).find((row) => row.dataset === 'federal')).toMatchObject({ state: 'none' });
  });
});

describe('scrub-server data import: release dates', () => {
  it('refuses a federal or state list without its release date, or with one that is not a date', async () => {
    await expect(
      run('import', 'ftc', file('dnc.txt', fullListText(numbers)), '--released', 'none'),
    ).rejects.toThrow(
      /A ftc import needs the FTC registry's release date, the date of the list itself \(not today's\): give it with --released YYYY-MM-DD/,
    );
    await expect(
      run('import', 'state', file('tx.csv', '5127360100\n'), '--state', 'TX', '--released', 'none'),
    ).rejects.toThrow(/A state import needs the state list's release date/);
    await expect(
      run('import', 'ftc', file('dnc.txt', fullListText(numbers)), '--released', '2025-02-30'),
    ).rejects.toThrow('--released 2025-02-30 is not a date: give it as YYYY-MM-DD.');
    await expect(
      run('import', 'ftc', file('dnc.txt', fullListText(numbers)), '--released', '2999-01-01'),
    ).rejects.toThrow(/is in the future/);
    expect((await status()).find((row) => row.dataset === 'federal')).toMatchObject({ state: 'none' });
  });
});
