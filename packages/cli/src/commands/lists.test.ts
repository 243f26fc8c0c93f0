import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DncListBuilder } from '@scrub/engine';
import type { VerifyResult } from '@scrub/sdk';
import { accountWithApiKey, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

/**
 * `--lists` and `scrub account lists` against the real service in this process, its data directory
 * holding a litigator list as `scrub-server data import list --name litigators` leaves it.
 */
let server: RunningServer;
let dataDir: string;
let env: NodeJS.ProcessEnv;

/** The store's layout (server reference-data/dataset-store.ts): a manifest naming one version. */
function writeLitigatorList(dir: string, numbers: number[]) {
  const builder = new DncListBuilder('list:litigators');
  for (const number of numbers) builder.add(number);
  const list = builder.build('lit-v1');
  const version = 'versions/list-litigators/20261101T000000Z-00000000';
  const bytes = new Uint8Array(list.buffer);
  mkdirSync(join(dir, 'datasets', version), { recursive: true });
  writeFileSync(join(dir, 'datasets', version, 'list.bin'), bytes);
  const meta = {
    format: 'scrub-dataset-version-1',
    kind: 'dnc',
    dataset: 'list:litigators',
    version: 'lit-v1',
    importedAt: '2026-11-01T00:00:00.000Z',
    releasedOn: '2026-11-01',
    list: { size: list.size, exchanges: list.exchanges },
    buffer: { file: 'list.bin', bytes: bytes.length, crc32: crc32(bytes) },
    imports: [],
  };
  writeFileSync(join(dir, 'datasets', version, 'meta.json'), JSON.stringify(meta));
  const manifest = {
    format: 'scrub-datasets-1',
    updatedAt: '2026-11-01T00:00:00.000Z',
    datasets: { 'list:litigators': { live: version, previous: null } },
    staged: {},
  };
  writeFileSync(join(dir, 'datasets', 'manifest.json'), JSON.stringify(manifest));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scrub-lists-data-'));
  writeLitigatorList(dataDir, [2012345678]);
  server = await startLocalServer({ SCRUB_DATA_DIR: dataDir });
  const key = await accountWithApiKey(server, { sub: 'lists', email: 'lists@example.com', credits: 100 });
  env = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: key };
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const LITIGATORS = { name: 'litigators', released_on: '2026-11-01' };

describe('operator lists in the CLI', () => {
  it('scrub verify --lists answers each list, and says an unknown one is not there', async () => {
    const json = await scrub(['--json', 'verify', '--lists', 'litigators', '2012345678'], env);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as VerifyResult).lists).toEqual([{ ...LITIGATORS, listed: true }]);

    const csv = await scrub(['verify', '--csv', '--lists', 'litigators', '2012345678', '8005551234'], env);
    expect(csv.stdout.split('\n')[0]).toMatch(/,callable_now,line_type_source,ported,lists$/);
    expect(
      csv.stdout
        .split('\n')
        .slice(1, 3)
        .map((row) => row.split(',').at(-1)),
    ).toEqual(['litigators=1', 'litigators=0']);

    const unknown = await scrub(['verify', '--lists', 'plaintiffs', '2012345678'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no list named "plaintiffs": the lists are litigators');
  });

  it('scrub account lists shows and sets the default, which scrub bulk then flags with', async () => {
    const shown = await scrub(['account', 'lists'], { ...env, NO_COLOR: '1' });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/│ litigators +│ no +│ 2026-11-01 +│ 1 +│/);
    expect(shown.stdout).toContain('No list counts by default');

    const set = await scrub(['--json', 'account', 'lists', 'litigators'], env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ lists: ['litigators'] });

    const leads = 'Name,Phone\nAnn,201-234-5678\nBob,800-555-1234\n';
    const bulk = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait'], env, { stdin: leads });
    expect(bulk.code, bulk.stderr).toBe(0);
    const rows = bulk.stdout
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split(/\r?\n/);
    expect(rows[0]).toBe('Name,Phone,Line Type,DNC,List: litigators');
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual(['1', '0']);

    const none = await scrub(['bulk', '-', '--phone-col', 'Phone', '--wait', '--lists', ''], env, {
      stdin: leads,
    });
    expect(none.stdout.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('Name,Phone,Line Type,DNC');

    const cleared = await scrub(['--json', 'account', 'lists', '--none'], env);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ lists: [] });
  });
});
