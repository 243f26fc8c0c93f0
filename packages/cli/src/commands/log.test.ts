import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultRowsPage } from '@scrub/contract';
import type { CheckPage } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  scrub,
  startServerOnDisk,
  tempConfigDir,
} from '../../test/harness.js';

/** `scrub log`: the phone log of the account, against the real service in this process. */
let server: RunningServer;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scrub-log-data-'));
  server = await startServerOnDisk(dataDir);
  env = await apiKeyAccount(server, dataDir, 100);
  const checked = await scrub(['verify', '2012345678', '1234567890'], env);
  expect(checked.code, checked.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('scrub log', () => {
  it('lists the checks just made, newest first, as JSON with their source and credits', async () => {
    const result = await scrub(['--json', 'log'], env);
    expect(result.code, result.stderr).toBe(0);
    const page = JSON.parse(result.stdout) as CheckPage;
    expect(page.total).toBe(2);
    expect(page.checks.map((c) => c.input).sort()).toEqual(['1234567890', '2012345678']);
    expect(page.checks.every((c) => c.source === 'api_key' && c.api_key_id !== null)).toBe(true);
    const valid = page.checks.find((c) => c.input === '2012345678');
    expect(valid).toMatchObject({ phone_number: '+12012345678', credits: 1 });
  });

  it('filters, prints a table at a terminal, and exports CSV', async () => {
    const invalid = await scrub(['--json', 'log', '--line-type', 'invalid'], env);
    expect((JSON.parse(invalid.stdout) as CheckPage).checks.map((c) => c.input)).toEqual(['1234567890']);
    const table = await scrub(['log', '--number', '201-234'], { ...env, NO_COLOR: '1' }, { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('+12012345678');
    expect(table.stdout).not.toContain('1234567890');
    expect(table.stderr).toContain('Page 1 of 1 (1 check)');
    const csv = await scrub(['log', '--csv'], env);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^Checked At,Input,Phone Number,Line Type,DNC/);
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(3);
  });

  it('refuses options that do not go together, before any request', async () => {
    const offline = {
      SCRUB_CONFIG_DIR: tempConfigDir(),
      SCRUB_API_KEY: 'scrub_unused',
      SCRUB_API_URL: 'http://127.0.0.1:9',
    };
    const both = await scrub(['log', '--csv', '--page', '2'], offline);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--csv exports every matching check');
    const dates = await scrub(['log', '--from', '2026-02-01', '--to', '2026-01-01'], offline);
    expect(dates.code).toBe(2);
    expect(dates.stderr).toContain('--to must not be before --from');
  });
});

describe('scrub log --file (a bulk result row by row)', () => {
  let reference: string;

  beforeAll(async () => {
    const leads = join(dataDir, 'review.csv');
    writeFileSync(
      leads,
      'Name,Email,Phone\r\nAnn Lee,ann@example.com,2012345678\r\nBob Ray,bob@example.com,8005551234\r\nCy,cy@example.com,123\r\n',
    );
    const job = await scrub(
      [
        '--json',
        'bulk',
        leads,
        '--phone-col',
        'Phone',
        '--map',
        'full_name=Name',
        '--map',
        'email=Email',
        '--wait',
        '-o',
        join(dataDir, 'review-scrubbed.csv'),
      ],
      env,
    );
    expect(job.code, job.stderr).toBe(0);
    reference = (JSON.parse(job.stdout) as { file_reference: string }).file_reference;
  }, 120_000);

  it('shows each row with its answer and the mapped name and e-mail, and searches them', async () => {
    const table = await scrub(['log', '--file', reference], { ...env, NO_COLOR: '1' }, { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Row.*Number.*Line type.*DNC.*Name.*E-mail/);
    expect(table.stdout).toMatch(/2 .*8005551234.*toll_free.*Bob Ray.*bob@example\.com/);
    expect(table.stderr).toContain('Page 1 of 1 (3 rows)');
    const found = await scrub(['--json', 'log', '--file', reference, '--search', 'ann@'], env);
    expect(found.code, found.stderr).toBe(0);
    const page = JSON.parse(found.stdout) as ResultRowsPage;
    expect(page.rows.map((row) => row.row)).toEqual([1]);
    const piped = await scrub(['log', '--file', reference, '--line-type', 'invalid'], env);
    expect(piped.stdout).toBe('3\t123\tinvalid\t\tCy\tcy@example.com\n');
  });

  it("refuses the phone log's own options with --file, before any request", async () => {
    const refused = await scrub(['log', '--file', 'ref', '--csv'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--file reviews a bulk result: leave out --csv');
  });
});
