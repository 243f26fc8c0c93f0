import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAccount,
  type RunningServer,
  scrub,
  startServerOnDisk,
  tempConfigDir,
} from '../../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'scrub-dnc-cli-'));
let server: RunningServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  server = await startServerOnDisk(dataDir);
  env = await apiKeyAccount(server, dataDir, 0);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('scrub suppression (alias: dnc)', () => {
  it('adds, lists, imports, removes and exports the suppression list', async () => {
    const added = await scrub(['dnc', 'add', '(202) 444-0401', '+1 202 444 0402', '12345'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Added\s+2\n/);
    expect(added.stdout).toMatch(/Not read\s+1\n/);
    expect(added.stderr).toContain('Not read: #3 12345:');

    const piped = await scrub(['--json', 'suppression', 'add', '-'], env, {
      stdin: '2024440403\n\n2024440401\n',
    });
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ changed: 1, unchanged: 1, summary: { count: 3 } });

    const csv = join(dir, 'optouts.csv');
    writeFileSync(csv, 'Name,Phone\nAda,202.444.0404\nBob,202-444-0405\n');
    const merged = await scrub(['suppression', 'import', csv, '--phone-col', 'Phone'], env);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/On your list\s+5\n/);

    const listed = await scrub(['suppression', 'list', '--search', '0405'], env);
    expect(listed.stdout.trim().split('\t')[0]).toBe('+12024440405');

    const removed = await scrub(['suppression', 'remove', '2024440401', '2024449999'], env);
    expect(removed.stdout).toMatch(/Removed\s+1\n/);
    expect(removed.stdout).toMatch(/Not on the list\s+1\n/);

    const replaced = await scrub(['suppression', 'import', '-', '--replace'], env, { stdin: '2024440406\n' });
    expect(replaced.code, replaced.stderr).toBe(0);
    const all = await scrub(['--json', 'suppression', 'list', '--all'], env);
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).phone_number),
    ).toEqual(['+12024440406']);

    const out = join(dir, 'list.csv');
    expect((await scrub(['suppression', 'export', '-o', out], env)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^phone_number,added_at\n\+12024440406,20\d\d-/);
  });

  it('imports a file over the 1 MiB inline limit by upload, from a path and from stdin', async () => {
    const lines = Array.from(
      { length: 90_000 },
      (_, i) => `Lead ${i},+1 (203) 55${String(i).padStart(5, '0')}`,
    );
    const text = `Name,Phone\n${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const big = join(dir, 'big-optouts.csv');
    writeFileSync(big, text);
    const fromFile = await scrub(
      ['--json', 'suppression', 'import', big, '--phone-col', 'Phone', '--replace'],
      env,
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ rejected_count: 0, summary: { count: 90_000 } });

    const fromStdin = await scrub(['--json', 'suppression', 'import', '-', '--phone-col', 'Phone'], env, {
      stdin: text.replaceAll('(203)', '(204)'),
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ changed: 90_000, summary: { count: 180_000 } });
  }, 120_000);

  it('fails when no number can be read, and says what was wrong', async () => {
    const result = await scrub(['suppression', 'add', 'not-a-number'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No number could be read: nothing was changed.');
  });

  it.each([
    [['import', 'x.csv', '--merge', '--replace'], '--merge and --replace cannot be used together'],
    [['list', '--limit', '1001'], '--limit must be a whole number from 1 to 1000'],
    [['add', '-', '2015550123'], '- reads the numbers from stdin, so it comes alone'],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await scrub(['suppression', ...args], {
      SCRUB_CONFIG_DIR: tempConfigDir(),
      SCRUB_API_KEY: 'scrub_unused',
      SCRUB_API_URL: 'http://127.0.0.1:9',
    });
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });
});
