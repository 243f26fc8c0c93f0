import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileList } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAccount, type RunningServer, scrub, startServerOnDisk } from '../../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'scrub-existing-cli-'));
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

function csvFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('scrub upload-existing', () => {
  it('stores a scrubbed file charging nothing; scrub files lists it and scrub export downloads it', async () => {
    const file = csvFile(
      'done.csv',
      'Name,Phone,Kind,DNC flag\nAnn,2012345678,Mobile,0\nBob,2023334444,VoIP,1\n',
    );
    const stored = await scrub(
      [
        'upload-existing',
        file,
        '--phone-col',
        'Phone',
        '--line-type-col',
        '3',
        '--dnc-col',
        'DNC flag',
        '--json',
      ],
      env,
    );
    expect(stored.stderr).toBe('');
    expect(stored.code).toBe(0);
    const view = JSON.parse(stored.stdout);
    expect(view).toMatchObject({
      file_method: 'upload',
      status: 'completed',
      total_records: 2,
      credits_charged: 0,
    });

    const files: FileList = JSON.parse((await scrub(['files', '--json'], env)).stdout);
    expect(files.files[0]).toMatchObject({ file_reference: view.file_reference, file_method: 'upload' });
    const dnc = await scrub(['export', view.file_reference, '--dnc', '1'], env);
    expect(dnc.stdout.trim().split('\n')).toEqual([
      'Name,Phone,Kind,DNC flag,Line Type,DNC',
      'Bob,2023334444,VoIP,1,voip,1',
    ]);
  });

  it('names the unknown line types and their rows, exits 1 and stores nothing', async () => {
    const file = csvFile('bad.csv', 'Phone,Kind\n2012345678,mobile\n2012345679,pager\n');
    const before: FileList = JSON.parse((await scrub(['files', '--json'], env)).stdout);
    const refused = await scrub(
      ['upload-existing', file, '--phone-col', '1', '--line-type-col', 'Kind'],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"pager" is not a line type (row 3)');
    const after: FileList = JSON.parse((await scrub(['files', '--json'], env)).stdout);
    expect(after.total_files_count).toBe(before.total_files_count);
  });

  it('reads the CSV from stdin with -, named stdin.csv unless --name says otherwise', async () => {
    const stored = await scrub(
      ['upload-existing', '-', '--phone-col', 'Phone', '--line-type-col', 'Kind', '--json'],
      env,
      { stdin: 'Phone,Kind\n2012345678,landline\n2012345679,mobile\n' },
    );
    expect(stored.code, stored.stderr).toBe(0);
    const view = JSON.parse(stored.stdout);
    expect(view).toMatchObject({
      file_name: 'stdin.csv',
      total_records: 2,
      line_types: { landline: 1, mobile: 1 },
    });
    const back = await scrub(['export', view.file_reference], env);
    expect(back.stdout.trim().split('\n')).toEqual([
      'Phone,Kind,Line Type,DNC',
      // No DNC column: the DNC status was not looked up, so it is left blank, never "clean".
      '2012345678,landline,landline,',
      '2012345679,mobile,mobile,',
    ]);
    const tty = await scrub(['upload-existing', '-', '--phone-col', '1', '--line-type-col', '2'], env, {
      stdinIsTTY: true,
    });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain('reads the CSV from a pipe');
  });

  it('needs the line type column (exit 2)', async () => {
    const file = csvFile('any.csv', 'Phone\n2012345678\n');
    const result = await scrub(['upload-existing', file, '--phone-col', 'Phone'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--line-type-col');
  });
});
