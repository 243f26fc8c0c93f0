import type { Command } from 'commander';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFixture } from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import type { DatasetStatus } from '../reference-data/data-status.js';
import { ReferenceData } from '../reference-data/reference-data.js';
import { dataCommand } from './data.js';

// `scrub-server data import list`: an operator's own flag lists (litigators), as vendors ship them.

let config: ServerConfig;
let files: string;
let out: string;
let err: string;

beforeEach(() => {
  config = loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-data-'), SCRUB_PORT: '0' });
  files = tempDir('scrub-files-');
  out = '';
  err = '';
});

const allCommands = (command: Command): Command[] => [command, ...command.commands.flatMap(allCommands)];

async function run(...args: string[]): Promise<string> {
  const command = dataCommand({
    config: () => config,
    open: () => Promise.reject(new Error('no database here')),
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
  await command.parseAsync(args, { from: 'user' });
  return out.slice(before);
}

const file = (name: string, text: string) => writeFixture(files, name, text);

async function status(): Promise<DatasetStatus[]> {
  return JSON.parse(await run('status', '--json')).datasets;
}

// A commercial litigator list's usual shape: plaintiff, case, state, and the phone among them.
const LITIGATORS = [
  'Plaintiff Name,Case Number,State,Phone Number',
  '"Doe, John",1:24-cv-00017,NJ,(201) 234-0001',
  'Roe Richard,2:23-cv-10442,TX,+1 512-736-0100',
].join('\r\n');

describe('scrub-server data import list', () => {
  it('imports a list under any name, finds its phone column, records its date, and shows it in data status', async () => {
    const imported = await run(
      'import',
      'list',
      file('litigators.csv', LITIGATORS),
      '--name',
      'litigators',
      '--released',
      '2026-11-01',
    );
    expect(imported).toMatch(
      /^Imported list:litigators version [0-9a-f]{12}, released 2026-11-01: 2 numbers/,
    );
    await run('import', 'list', file('vendor.txt', '2012340002\n201.234.0003\n'), '--name', 'vendor-x-2');

    const rows = await status();
    expect(rows.find((row) => row.dataset === 'list:litigators')).toMatchObject({
      state: 'imported',
      released_on: '2026-11-01',
      counts: { numbers: 2 },
    });
    expect(rows.find((row) => row.dataset === 'list:vendor-x-2')).toMatchObject({
      released_on: null,
      counts: { numbers: 2 },
    });
    // Never aged: not a do-not-call list, so no stale note.
    const table = await run('status');
    expect(table).toMatch(/│ list:litigators +│ .+│ 2026-11-01 +│/);
    expect(table).not.toContain('Stale:');

    // A new version replaces the list of that name; the service loads them apart from the DNC lists.
    await run('import', 'list', file('litigators-2.csv', 'phone\n2012340009\n'), '--name', 'litigators');
    const data = await ReferenceData.open(config, false);
    try {
      const snapshot = data.current();
      expect(snapshot.lists?.lists.map((list) => list.name)).toEqual(['list:litigators', 'list:vendor-x-2']);
      expect(snapshot.lists?.sources(2012340009)).toEqual(['list:litigators']);
      expect(snapshot.lists?.sources(2012340001)).toEqual([]);
      expect(snapshot.dnc.lists).toEqual([]);
    } finally {
      await data.close();
    }
  });

  it('refuses a name that is not lowercase letters, digits and dashes, and a file with no phone column', async () => {
    await expect(
      run('import', 'list', file('a.csv', '2012340001\n'), '--name', 'Litigators'),
    ).rejects.toThrow(/"Litigators" cannot name a list: use lowercase letters, digits and dashes/);
    await expect(
      run('import', 'list', file('b.csv', 'Name,Case\nDoe,1:24-cv-1\n'), '--name', 'litigators'),
    ).rejects.toThrow(/Import refused/);
    expect(err).toMatch(/no phone column.*--column/);
    expect((await status()).some((row) => row.dataset === 'list:litigators')).toBe(false);
  });

  it('takes the column the operator names', async () => {
    const text = 'Number,Alt Phone\n2012340001,2012340002\n';
    await run('import', 'list', file('c.csv', text), '--name', 'alt', '--column', 'alt phone');
    const data = await ReferenceData.open(config, false);
    try {
      expect(data.current().lists?.sources(2012340002)).toEqual(['list:alt']);
    } finally {
      await data.close();
    }
  });
});
