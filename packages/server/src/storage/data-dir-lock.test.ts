import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { openDatabase } from './database.js';

function dataDir(): string {
  return join(tempDir('scrub-lock-'), 'pglite');
}

describe('the embedded database lock', () => {
  it('lets one process at a time open a data directory, and frees it on close', async () => {
    const dir = dataDir();
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(readFileSync(`${dir}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
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
    expect(readFileSync(`${dir}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
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

it('stays locked while a process that worked for a dead owner (its database process) lives', async () => {
  const dir = dataDir();
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(`${dir}.lock`, `${dead}\n${process.ppid}`);
  await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
    `in use by process ${process.ppid}`,
  );
  writeFileSync(`${dir}.lock`, `${dead}\n${dead}`);
  await (await openDatabase({ kind: 'pglite', dataDir: dir })).close();
});
