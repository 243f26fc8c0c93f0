import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scrub-lock-'));
  dirs.push(dir);
  return join(dir, 'pglite');
}

describe('the embedded database lock', () => {
  it('lets one process at a time open a data directory, and frees it on close', async () => {
    const dir = dataDir();
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
      /already open in this process/,
    );
    await first.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    await (await openDatabase({ kind: 'pglite', dataDir: dir })).close();
  });

  it('refuses while another live process holds it, and takes over from a dead one', async () => {
    const dir = dataDir();
    writeFileSync(`${dir}.lock`, String(process.ppid));
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(/in use by process/);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(`${dir}.lock`, String(dead));
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await database.close();
  });

  it('takes over a lock naming its own pid from an earlier life (a container restarted as pid 1)', async () => {
    const dir = dataDir();
    writeFileSync(`${dir}.lock`, String(process.pid));
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    await database.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});
