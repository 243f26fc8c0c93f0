import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsageReport } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  scrub,
  startServerOnDisk,
  tempConfigDir,
} from '../../test/harness.js';

/** `scrub usage`: Client Performance of the account, against the real service in this process. */
let server: RunningServer;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scrub-usage-data-'));
  server = await startServerOnDisk(dataDir);
  env = await apiKeyAccount(server, dataDir, 100);
  for (const numbers of [['2012345678'], ['2012345679', '1234567890']]) {
    const checked = await scrub(['verify', ...numbers], env);
    expect(checked.code, checked.stderr).toBe(0);
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('scrub usage', () => {
  it('answers the checks just made as JSON: by source, line type, credits', async () => {
    const result = await scrub(['--json', 'usage', '--interval', 'week'], env);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as UsageReport;
    expect(report).toMatchObject({ interval: 'week', to: today });
    expect(report.intervals).toHaveLength(12);
    expect(report.total.checks.total).toBe(3);
    expect(report.total.checks.api_key + report.total.checks.batch).toBe(3);
    expect(report.total.line_types.invalid).toBe(1);
    expect(report.total.credits).toEqual({ spent: 2, bought: 0 });
  });

  it('prints a table at a terminal, lines in a pipe, and the CSV export', async () => {
    const table = await scrub(['usage', '--from', today], { ...env, NO_COLOR: '1' }, { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('DNC hit rate');
    expect(table.stdout).toMatch(/Total\s*│\s*3\s*│/);
    expect(table.stdout).toContain('invalid 1');
    const lines = await scrub(['usage', '--from', today], env);
    expect(lines.stdout.trim().split('\t').slice(0, 2)).toEqual([today, '3']);
    const csv = await scrub(['usage', '--csv', '--from', today], env);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows[0]).toMatch(/^Account,Start,Checks,API Key,/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(new RegExp(`^[^,]+,${today},3,`));
  });

  it('refuses a range the wrong way round and a wrong interval, before any request', async () => {
    const offline = {
      SCRUB_CONFIG_DIR: tempConfigDir(),
      SCRUB_API_KEY: 'scrub_unused',
      SCRUB_API_URL: 'http://127.0.0.1:9',
    };
    const dates = await scrub(['usage', '--from', '2026-02-01', '--to', '2026-01-01'], offline);
    expect(dates.code).toBe(2);
    expect(dates.stderr).toContain('--to must not be before --from');
    const interval = await scrub(['usage', '--interval', 'month'], offline);
    expect(interval.code).toBe(2);
    expect(interval.stderr).toContain('--interval must be day or week');
  });
});
