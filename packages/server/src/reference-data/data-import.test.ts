import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ClassCode, ImportError } from '@scrub/engine';
import { describe, expect, it } from 'vitest';
import {
  CO_CODE_FILE,
  exchangeNumbers,
  fullListText,
  NUMBER_OVERRIDES_CSV,
  OCN_LINE_TYPES_CSV,
  RELEASED_TODAY,
  THOUSANDS_BLOCK_FILE,
  writeFixture,
} from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { DataImportError, importData } from './data-import.js';
import { DatasetStore } from './dataset-store.js';

const numbers = exchangeNumbers(201234, 5);
const line = (number: number) => `${String(number).slice(0, 3)},${String(number).slice(3)}`;

function setUp() {
  const dataDir = tempDir('scrub-import-');
  const files = tempDir('scrub-files-');
  const store = new DatasetStore(dataDir);
  const manifest = () => JSON.parse(readFileSync(store.manifestPath, 'utf8'));
  const versionDirs = (dataset: string) => readdirSync(join(store.dir, 'versions', dataset)).sort();
  const ftc = (text: string, version: string) =>
    importData(store, {
      kind: 'ftc',
      releasedOn: RELEASED_TODAY,
      files: [writeFixture(files, `${version}.txt`, text)],
      mode: 'strict',
      version,
    });
  return { dataDir, files, store, manifest, versionDirs, ftc };
}

describe('importData', () => {
  it('writes a version as the raw buffers of its table: loading reads them back, the same answers', async () => {
    const { files, store, manifest } = setUp();
    const file = (name: string, text: string) => writeFixture(files, name, text, 'latin1');
    await importData(store, {
      kind: 'ocn-line-types',
      files: [file('ocn.csv', OCN_LINE_TYPES_CSV)],
      mode: 'strict',
    });
    const built = await importData(store, {
      kind: 'co-codes',
      files: [file('CoCodes.txt', CO_CODE_FILE)],
      mode: 'strict',
    });
    await importData(store, {
      kind: 'thousands-blocks',
      files: [file('blocks.txt', THOUSANDS_BLOCK_FILE)],
      mode: 'strict',
    });
    await importData(store, {
      kind: 'number-overrides',
      files: [file('ported.csv', NUMBER_OVERRIDES_CSV)],
      mode: 'strict',
    });
    expect(built.status).toBe('imported');

    const live = manifest().datasets.exchange.live;
    expect(readdirSync(join(store.dir, live)).sort()).toEqual([
      'blocks.bin',
      'exchanges.bin',
      'meta.json',
      'number-answers.bin',
      'number-lines.bin',
      'number-start.bin',
      'sources',
    ]);
    expect(statSync(join(store.dir, live, 'exchanges.bin')).size).toBe(1_000_000);
    const loaded = await store.load(live);
    if (loaded.kind !== 'exchange') throw new Error('not exchange data');
    const answers = [2012345678, 2012365123, 2012366123, 2012365000, 2012340001, 2012381234, 2017771234].map(
      (number) => loaded.table.lineTypeCode(number),
    );
    expect(answers).toEqual([
      ClassCode.MOBILE,
      ClassCode.MOBILE,
      ClassCode.LANDLINE,
      ClassCode.LANDLINE,
      ClassCode.VOIP,
      ClassCode.EXCHANGE_NOT_IN_SERVICE,
      ClassCode.EXCHANGE_NOT_IN_SERVICE,
    ]);
    expect(loaded.table.stats).toMatchObject({ blocks: 3, numbers: 2 });
    expect(loaded.meta.sources.coCodes.name).toBe('CoCodes.txt');
  });

  it('keeps the previous version of a dataset for one step and deletes older ones', async () => {
    const { manifest, versionDirs, ftc, store } = setUp();
    await ftc(fullListText(numbers.slice(0, 1)), 'v1');
    await ftc(fullListText(numbers.slice(0, 2)), 'v2');
    const third = await ftc(fullListText(numbers.slice(0, 3)), 'v3');

    expect(third).toMatchObject({ status: 'imported', previousVersion: 'v2' });
    const { live, previous } = manifest().datasets.federal;
    expect(versionDirs('federal')).toEqual(
      [live, previous].map((dir: string) => dir.split('/').at(-1)).sort(),
    );
    expect((await store.readMeta(previous)).version).toBe('v2');
  });

  it('leaves everything as it was when a file is refused', async () => {
    const { store, ftc, versionDirs } = setUp();
    await ftc(fullListText(numbers.slice(0, 2)), 'v1');
    const before = readFileSync(store.manifestPath, 'utf8');

    const refused = ftc(`${line(numbers[0]!)}\n201,23X4567\n`, 'v2');
    await expect(refused).rejects.toThrow(ImportError);
    await expect(refused).rejects.toMatchObject({ problems: [expect.objectContaining({ line: 2 })] });
    expect(readFileSync(store.manifestPath, 'utf8')).toBe(before);
    expect(versionDirs('federal')).toHaveLength(1);
  });

  it('applies change lists to the live federal list, and refuses them while there is none', async () => {
    const { store, files, ftc } = setUp();
    const changes = (name: string, text: string) => writeFixture(files, name, text);
    await expect(
      importData(store, {
        kind: 'ftc-changes',
        releasedOn: RELEASED_TODAY,
        files: [changes('c0.txt', `${line(numbers[0]!)},A\n`)],
        mode: 'strict',
      }),
    ).rejects.toThrow(
      new DataImportError(
        'There is no federal list to apply changes to: import the full list first (`scrub-server data import ftc <file>`).',
      ),
    );

    await ftc(fullListText(numbers.slice(0, 2)), 'v1');
    const outcome = await importData(store, {
      kind: 'ftc-changes',
      releasedOn: RELEASED_TODAY,
      files: [
        changes('c1.txt', `${line(numbers[0]!)},D,2025-06-02\n${line(numbers[2]!)},A,2025-06-02\n`),
        changes('c2.txt', `${line(numbers[3]!)},A,2025-06-03\n${line(numbers[2]!)},D,2025-06-03\n`),
      ],
      mode: 'strict',
      version: '2025-06-03',
    });
    expect(outcome).toMatchObject({
      status: 'imported',
      previousVersion: 'v1',
      meta: { version: '2025-06-03' },
    });
    const loaded = await store.load(
      JSON.parse(readFileSync(store.manifestPath, 'utf8')).datasets.federal.live,
    );
    if (loaded.kind !== 'dnc') throw new Error('not a list');
    expect([...loaded.list.numbers()]).toEqual([numbers[1], numbers[3]].sort());
  });

  it('runs two imports at once one after the other: neither change list is lost', async () => {
    const { dataDir, files, ftc } = setUp();
    await ftc(fullListText(numbers.slice(0, 1)), 'v1');
    let waited = 0;
    // Two processes, as far as the store can tell: each has its own store object.
    const apply = (name: string, number: number) =>
      importData(
        new DatasetStore(dataDir),
        {
          kind: 'ftc-changes',
          releasedOn: RELEASED_TODAY,
          files: [writeFixture(files, name, `${line(number)},A\n`)],
          mode: 'strict',
        },
        () => waited++,
      );
    await Promise.all([apply('a.txt', numbers[1]!), apply('b.txt', numbers[2]!)]);

    expect(waited).toBe(1);
    const store = new DatasetStore(dataDir);
    const loaded = await store.load((await store.readManifest()).datasets.federal!.live);
    if (loaded.kind !== 'dnc') throw new Error('not a list');
    expect([...loaded.list.numbers()]).toEqual(numbers.slice(0, 3).sort());
    expect(existsSync(join(store.dir, 'import.lock'))).toBe(false);
  });
});
