import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server for the storage suites, or null when none could be found. */
    postgresUrl: string | null;
  }
}

function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('postgres did not accept connections within 10 s');
}

/** Starts a throwaway PostgreSQL cluster from the Debian packages (as the postgres user when we are root). */
async function startTemporaryPostgres(bin: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'scrub-pg-'));
  const asRoot = process.getuid?.() === 0;
  const runAs = (file: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args]) as [string, string[]];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  execFileSync(
    ...runAs(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']),
    {
      stdio: 'ignore',
    },
  );
  const port = await freePort();
  const child = spawn(
    ...runAs(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ]),
    { stdio: 'ignore' },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitUntilReady(url, child);
  return {
    url,
    async stop() {
      // runuser does not pass signals on to postgres, so ask postgres itself to stop.
      const exited = new Promise((r) => child.once('exit', r));
      execFileSync(...runAs(join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate']), {
        stdio: 'ignore',
      });
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The storage suites run on PGlite always, and on PostgreSQL when one is available: the one in
 * SCRUB_TEST_DATABASE_URL, or a temporary cluster started from the machine's PostgreSQL binaries.
 * With SCRUB_REQUIRE_POSTGRES=1 (CI) a missing PostgreSQL fails the run instead of narrowing it.
 */
export default async function setup(project: TestProject) {
  let url = process.env.SCRUB_TEST_DATABASE_URL ?? null;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const bin = findPostgresBin();
    if (bin) ({ url, stop } = await startTemporaryPostgres(bin));
  }
  if (!url) {
    if (process.env.SCRUB_REQUIRE_POSTGRES)
      throw new Error('SCRUB_REQUIRE_POSTGRES is set but no PostgreSQL was found');
    console.warn(
      '[server tests] No PostgreSQL found: the storage suites run on PGlite only. Install the postgresql package to run both.',
    );
  }
  project.provide('postgresUrl', url);
  return async () => {
    await stop?.();
  };
}
