import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreditHistoryPageOf } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  scrub,
  startServerOnDisk,
  tempConfigDir,
} from '../../test/harness.js';

/** `scrub credits --history`: the credit ledger of the account, against the real service in this process. */
let server: RunningServer;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scrub-credits-data-'));
  server = await startServerOnDisk(dataDir);
  env = await apiKeyAccount(server, dataDir, 100);
  const checked = await scrub(['verify', '2012345678'], env);
  expect(checked.code, checked.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('scrub credits --history', () => {
  it('lists every entry with its running balance, newest first, as JSON, a table and CSV', async () => {
    const result = await scrub(['--json', 'credits', '--history'], env);
    expect(result.code, result.stderr).toBe(0);
    const page = JSON.parse(result.stdout) as CreditHistoryPageOf;
    expect(page.entries.map((e) => [e.label, e.delta, e.balance_after])).toEqual([
      ['Check', -1, 99],
      ['Credits granted', 100, 100],
    ]);

    const table = await scrub(['credits', '--history'], { ...env, NO_COLOR: '1' }, { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/│ Date +│ Entry +│ Credits +│ Balance +│ Details +│/);
    expect(table.stdout).toMatch(/│ Check +│ -1 +│ 99 +│/);
    expect(table.stderr).toContain('Page 1 of 1 (2 entries)');

    const month = new Date().toISOString().slice(0, 7);
    const csv = await scrub(['credits', '--history', '--csv', '--month', month], env);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toBe('Date,Entry,Kind,Credits,Balance,Reason,Reference,Note');
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(3);

    const past = await scrub(['--json', 'credits', '--history', '--month', '2020-01'], env);
    expect((JSON.parse(past.stdout) as CreditHistoryPageOf).total).toBe(0);
  });

  it('still shows the balance without --history, and refuses options that need it, before any request', async () => {
    const snapshot = await scrub(['credits'], env);
    expect(snapshot.code, snapshot.stderr).toBe(0);
    expect(snapshot.stdout).toMatch(/Credits +99/);
    const offline = {
      SCRUB_CONFIG_DIR: tempConfigDir(),
      SCRUB_API_KEY: 'scrub_unused',
      SCRUB_API_URL: 'http://127.0.0.1:9',
    };
    const alone = await scrub(['credits', '--month', '2026-01'], offline);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('go with --history');
    const month = await scrub(['credits', '--history', '--month', '2026-13'], offline);
    expect(month.code).toBe(2);
    expect(month.stderr).toContain('YYYY-MM');
  });
});
