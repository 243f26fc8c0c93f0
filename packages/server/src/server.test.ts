import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/temp-dirs.js';
import { loadConfig } from './config/config.js';
import { startServer } from './server.js';
import { migrateToLatest } from './storage/database.js';

const tempDataDir = () => tempDir('scrub-server-');

/** Everything under `dir` (itself included) that anyone but its owner may read, write or enter. */
function openToOthers(dir: string): string[] {
  const paths = [dir, ...readdirSync(dir, { recursive: true }).map((name) => join(dir, String(name)))];
  return paths.filter((path) => {
    const stats = lstatSync(path);
    return !stats.isSymbolicLink() && (stats.mode & 0o077) !== 0;
  });
}

describe('the embedded setup', () => {
  it('keeps its data between runs in the data directory', async () => {
    const dataDir = tempDataDir();
    const config = loadConfig({ SCRUB_DATA_DIR: dataDir, SCRUB_PORT: '0' });
    expect(config.database).toEqual({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });

    const first = await startServer(config, false);
    await sql`create table kept (note text)`.execute(first.database.db);
    await sql`insert into kept values ('still here')`.execute(first.database.db);
    await first.close();

    const second = await startServer(config, false);
    try {
      expect(await migrateToLatest(second.database.db)).toEqual([]);
      const { rows } = await sql<{ note: string }>`select note from kept`.execute(second.database.db);
      expect(rows).toEqual([{ note: 'still here' }]);
      const res = await fetch(`${second.url}/plans`);
      expect(((await res.json()) as { plans: unknown[] }).plans.length).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('keeps the data directory and everything in it to its owner (0700 and 0600)', async () => {
    const dataDir = join(tempDataDir(), 'fresh');
    const server = await startServer(loadConfig({ SCRUB_DATA_DIR: dataDir, SCRUB_PORT: '0' }), false);
    try {
      // While it runs, the directory's own mode keeps others out of the files the database makes.
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      await server.close();
    }
    const files = readdirSync(dataDir, { recursive: true }).length;
    expect(files).toBeGreaterThan(100);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 90_000);

  it('refuses to start on a data directory others can write, and touches nothing in it', async () => {
    const dataDir = tempDataDir();
    chmodSync(dataDir, 0o777);
    await expect(
      startServer(loadConfig({ SCRUB_DATA_DIR: dataDir, SCRUB_PORT: '0' }), false),
    ).rejects.toThrow(/can be written by other users \(mode 777\).*chmod -R go-rwx/);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a second server on a data directory in use, and the first keeps its database and data', async () => {
    const dataDir = tempDataDir();
    const config = loadConfig({ SCRUB_DATA_DIR: dataDir, SCRUB_PORT: '0' });
    const first = await startServer(config, false);
    try {
      await expect(startServer(config, false)).rejects.toThrow(/is already open in this process/);
      const health = (await (await fetch(`${first.url}/health`)).json()) as {
        status: string;
        reference_data: Record<string, string>;
      };
      expect(health.status).toBe('ok');
      expect(health.reference_data.exchange).toBeTruthy();
    } finally {
      await first.close();
    }
    // The refused start left nothing behind: the next one opens the directory.
    const third = await startServer(config, false);
    await third.close();
  }, 90_000);

  it('refuses settings it cannot use, naming them', () => {
    expect(() => loadConfig({ SCRUB_PORT: 'eighty' })).toThrow(/SCRUB_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ SCRUB_SCRUB_THREADS: '0' })).toThrow(/SCRUB_SCRUB_THREADS: must be at least 1/);
    expect(() => loadConfig({ SCRUB_SCRUB_THREADS: 'two' })).toThrow(/SCRUB_SCRUB_THREADS/);
    expect(loadConfig({ SCRUB_SCRUB_THREADS: '3' }).scrubThreads).toBe(3);
    expect(loadConfig({}).scrubThreads).toBe(1);
  });
});

const bin = join(import.meta.dirname, '..', 'dist', 'bin.js');

describe.runIf(existsSync(bin))('scrub-server (built)', () => {
  it('shuts down cleanly on SIGTERM and exits 0', async () => {
    const child = spawn(process.execPath, [bin, 'start'], {
      env: { ...process.env, SCRUB_DATA_DIR: tempDataDir(), SCRUB_PORT: '0', SCRUB_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const ready = new Promise<void>((resolve) =>
      child.stderr.on('data', (d) => {
        stderr += d;
        if (stderr.includes('Scrub is running at')) resolve();
      }),
    );
    await ready;
    expect(stderr).toMatch(/curl http:\/\/localhost:\d+\/plans/);
    const exitCode = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exitCode).toBe(0);
    expect(stdout).toContain('shutting down');
  });

  it('at debug level, logs each step of its start with the time since the process began', async () => {
    const child = spawn(process.execPath, [bin, 'start'], {
      env: { ...process.env, SCRUB_DATA_DIR: tempDataDir(), SCRUB_PORT: '0', SCRUB_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d) => {
        stderr += d;
        if (stderr.includes('Scrub is running at')) resolve();
      }),
    );
    const exitCode = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exitCode).toBe(0);
    const steps = stdout
      .split('\n')
      .filter((line) => line.includes('"start: '))
      .map((line) => JSON.parse(line) as { msg: string; ms: number; at: number });
    expect(steps.map((s) => s.msg).sort()).toEqual(
      [
        'start: app built',
        'start: database migrated',
        'start: database opened',
        'start: listening',
        'start: modules loaded',
        'start: plans seeded',
        'start: reference data loaded',
      ].sort(),
    );
    expect(steps.at(0)?.msg).toBe('start: modules loaded');
    expect(steps.at(-1)?.msg).toBe('start: listening');
    const times = steps.map((s) => s.ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThan(0);
  }, 90_000);
});
