import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPhone, dataSourceOf } from '@scrub/engine';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CO_CODE_FILE,
  exchangeNumbers,
  fullListText,
  OCN_LINE_TYPES_CSV,
  RELEASED_TODAY,
  writeFixture,
} from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { type ImportRequest, importData } from './data-import.js';
import { DatasetStore } from './dataset-store.js';
import { dncFor, ReferenceData } from './reference-data.js';

const opened: ReferenceData[] = [];
afterEach(async () => {
  for (const data of opened.splice(0)) await data.close();
});

/** A logger whose lines the test can read. */
function memoryLogger() {
  const lines: { level: number; msg: string; err?: { message: string } }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const at = (level: number) => lines.filter((line) => line.level === level);
  return {
    logger,
    errors: () => at(50).map((line) => `${line.msg} ${line.err?.message ?? ''}`),
    warnings: () => at(40).map((line) => line.msg),
  };
}

async function open(dataDir: string, logger: pino.Logger | false = false, pollIntervalMs = 20) {
  const data = await ReferenceData.open({ dataDir }, logger, { pollIntervalMs });
  opened.push(data);
  return data;
}

/** An import as `scrub-server data import` does it, in its own store object: it shares only the files. */
function importInto(dataDir: string, request: ImportRequest) {
  return importData(new DatasetStore(dataDir), request);
}

function federal(dataDir: string, numbers: number[], version: string) {
  const file = writeFixture(tempDir('scrub-ftc-'), 'dnc.txt', fullListText(numbers));
  return importInto(dataDir, {
    kind: 'ftc',
    releasedOn: RELEASED_TODAY,
    files: [file],
    mode: 'strict',
    version,
  });
}

/** Flips one byte of a version's list buffer: what a disk error or a half-copied backup leaves. */
function damageLive(dataDir: string, dataset: string): void {
  const store = new DatasetStore(dataDir);
  const manifest = JSON.parse(readFileSync(store.manifestPath, 'utf8'));
  const path = join(store.dir, manifest.datasets[dataset].live, 'list.bin');
  const bytes = readFileSync(path);
  bytes[bytes.length - 1]! ^= 0xff;
  writeFileSync(path, bytes);
}

const [first, second, third] = exchangeNumbers(201234, 3) as [number, number, number];

describe('ReferenceData.open', () => {
  it('answers from sample exchange data and no DNC lists until something is imported', async () => {
    const data = await open(tempDir('scrub-ref-'));
    const snapshot = data.current();
    expect(dataSourceOf(snapshot)).toBe('sample');
    expect(snapshot.exchange.version).toBe('sample-v1');
    expect(snapshot.dnc.lists).toEqual([]);
    expect(data.versions()).toMatchObject({ exchange: 'sample-v1' });
    expect(Object.keys(data.versions()).filter((name) => name.startsWith('dnc:'))).toEqual([]);
  });

  it('picks up an import written by another process, swapping whole snapshots', async () => {
    const dataDir = tempDir('scrub-ref-');
    const data = await open(dataDir);
    const before = data.current();

    await federal(dataDir, [first, second], '2025-06-01');
    await vi.waitFor(() => expect(data.current().dnc.list('federal')?.version).toBe('2025-06-01'));
    const after = data.current();
    expect(after.dnc.has(first)).toBe(true);
    expect(after.dnc.has(third)).toBe(false);
    expect(data.versions()['dnc:federal']).toBe('2025-06-01');
    // An answer (or a bulk job) that took the snapshot before the swap still answers from it.
    expect(before.dnc.has(first)).toBe(false);

    const changes = writeFixture(tempDir('scrub-ftc-'), 'changes.txt', `201,${String(third).slice(3)},A\n`);
    await importInto(dataDir, {
      kind: 'ftc-changes',
      releasedOn: RELEASED_TODAY,
      files: [changes],
      mode: 'strict',
      version: '2025-06-02',
    });
    await vi.waitFor(() => expect(data.current().dnc.list('federal')?.version).toBe('2025-06-02'));
    expect(data.current().dnc.has(third)).toBe(true);
    expect(after.dnc.has(third)).toBe(false);
  });

  it('loads what the manifest names at start (a restart)', async () => {
    const dataDir = tempDir('scrub-ref-');
    const files = tempDir('scrub-files-');
    await federal(dataDir, [first], '2025-06-01');
    await importInto(dataDir, {
      kind: 'co-codes',
      files: [writeFixture(files, 'CoCodes.txt', CO_CODE_FILE, 'latin1')],
      mode: 'strict',
    });
    await importInto(dataDir, {
      kind: 'ocn-line-types',
      files: [writeFixture(files, 'ocn.csv', OCN_LINE_TYPES_CSV)],
      mode: 'strict',
    });

    const data = await open(dataDir);
    const snapshot = data.current();
    expect(dataSourceOf(snapshot)).toBe('imported');
    expect(snapshot.exchange.version).toMatch(/^co:2025-11-26,ocn:[0-9a-f]{12}$/);
    expect(checkPhone('(201) 234-5678', snapshot).lineType).toBe('mobile');
    expect(checkPhone('201-235-5678', snapshot).lineType).toBe('landline');
    expect(snapshot.dnc.has(first)).toBe(true);
  });

  it('logs a damaged new version and keeps answering from the live one', async () => {
    const dataDir = tempDir('scrub-ref-');
    await federal(dataDir, [first], 'v1');
    const { logger, errors } = memoryLogger();
    // Polling slowly: this test decides when the manifest is read again.
    const data = await open(dataDir, logger, 60_000);

    await federal(dataDir, [first, second], 'v2');
    damageLive(dataDir, 'federal');
    const generation = data.ref.generation;
    await data.reload();

    expect(data.ref.generation).toBe(generation);
    expect(data.current().dnc.list('federal')?.version).toBe('v1');
    expect(errors()).toEqual([
      expect.stringMatching(/cannot load federal from versions\/federal\/\S+; ignored .*CRC-32 mismatch/),
      expect.stringMatching(/still answering federal from the version loaded before/),
    ]);
  });

  it('starts from the previous version of a list whose live version is damaged', async () => {
    const dataDir = tempDir('scrub-ref-');
    await federal(dataDir, [first], 'v1');
    await federal(dataDir, [first, second], 'v2');
    damageLive(dataDir, 'federal');
    const { logger, errors, warnings } = memoryLogger();

    const data = await open(dataDir, logger);
    expect(data.current().dnc.list('federal')?.version).toBe('v1');
    expect(errors()).toEqual([expect.stringMatching(/cannot load federal .*CRC-32 mismatch/)]);
    expect(warnings()).toEqual(['reference data: answering federal from its previous version']);
  });

  it('logs a damaged manifest: the live data stays, and a fresh start refuses checks', async () => {
    const dataDir = tempDir('scrub-ref-');
    await federal(dataDir, [first], 'v1');
    const running = memoryLogger();
    const data = await open(dataDir, running.logger, 60_000);

    writeFileSync(new DatasetStore(dataDir).manifestPath, '{"format": "scrub-datasets-1", "datas');
    await data.reload();
    expect(data.current().dnc.list('federal')?.version).toBe('v1');
    expect(running.errors()).toEqual([
      expect.stringMatching(
        /manifest cannot be read; still answering from the versions loaded before .*not JSON/,
      ),
    ]);

    const starting = memoryLogger();
    const restarted = await open(dataDir, starting.logger);
    expect(restarted.current().dnc.lists).toEqual([]);
    expect(dataSourceOf(restarted.current())).toBe('sample');
    expect(restarted.missing()).toEqual(['datasets manifest']);
    expect(starting.errors()).toEqual([expect.stringMatching(/manifest cannot be read; checks are refused/)]);
  });

  it('keeps a list whose manifest disappeared: it never turns listed numbers clean', async () => {
    const dataDir = tempDir('scrub-ref-');
    await federal(dataDir, [first], 'v1');
    const { logger, errors } = memoryLogger();
    const data = await open(dataDir, logger, 60_000);
    rmSync(new DatasetStore(dataDir).manifestPath);
    await data.reload();
    expect(data.current().dnc.list('federal')?.version).toBe('v1');
    expect(data.current().dnc.has(first)).toBe(true);
    expect(errors()).toEqual([expect.stringMatching(/federal is no longer in the datasets manifest/)]);
  });

  it('names a list of which no version loads, so that checks are refused', async () => {
    const dataDir = tempDir('scrub-ref-');
    await federal(dataDir, [first], 'v1');
    damageLive(dataDir, 'federal');
    const data = await open(dataDir, memoryLogger().logger);
    expect(data.missing()).toEqual(['federal']);
    await federal(dataDir, [first], 'v2');
    await data.reload();
    expect(data.missing()).toEqual([]);
    expect(data.current().dnc.list('federal')?.version).toBe('v2');
  });

  it('stops following imports once closed', async () => {
    const dataDir = tempDir('scrub-ref-');
    const data = await open(dataDir);
    await data.close();
    await federal(dataDir, [first], 'v1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(data.current().dnc.lists).toEqual([]);
  });

  it("joins an account's own list to the shared ones for that account only, and never names it in versions", async () => {
    const dataDir = tempDir('scrub-ref-');
    const owner = '6f1c1d52-8a5e-4c1e-9a43-1d2b3c4d5e6f';
    const other = '0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d';
    await federal(dataDir, [first], 'v1');
    await importInto(dataDir, {
      kind: 'internal',
      account: { id: owner, email: 'owner@example.com' },
      csv: { column: 0 },
      files: [writeFixture(tempDir('scrub-csv-'), 'mine.csv', `${second}\n`)],
      mode: 'strict',
    });

    const data = await open(dataDir);
    const snapshot = data.current();
    expect(dncFor(snapshot, owner).sources(second)).toEqual([`internal:${owner}`]);
    expect(dncFor(snapshot, owner).sources(first)).toEqual(['federal']);
    expect(dncFor(snapshot, other).has(second)).toBe(false);
    expect(dncFor(snapshot, other).has(first)).toBe(true);
    expect(snapshot.dnc.has(second)).toBe(false);
    expect(JSON.stringify(data.versions())).not.toContain(owner);
  });
});
