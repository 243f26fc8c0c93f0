import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { isAlive } from '../process-alive.js';

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');
// CI builds first (`pnpm test`): there, a missing build fails these tests rather than skipping them.
if (process.env.CI && !existsSync(bin))
  throw new Error(`the embedded database's process tests need the built server: ${bin} is missing`);

/** The pids of `pid`'s children (Linux: /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/** `scrub-server start`, built, with the embedded database in a process of its own; resolves once it listens. */
async function startBuilt(dataDir: string) {
  const child: ChildProcess = spawn(process.execPath, [bin, 'start'], {
    env: {
      ...process.env,
      SCRUB_DATA_DIR: dataDir,
      SCRUB_PORT: '0',
      SCRUB_LOG_LEVEL: 'error',
      SCRUB_EMBEDDED_DATABASE: 'process',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Scrub is running at')) resolve();
    });
    void exited.then((code) => reject(new Error(`scrub-server exited ${code} before listening: ${output}`)));
  });
  const [database] = childrenOf(child.pid!);
  if (database === undefined) throw new Error('no process of its own for the embedded database');
  return { child, database, exited, output: () => output };
}

describe.runIf(existsSync(bin) && process.platform === 'linux')(
  'scrub-server start with SCRUB_EMBEDDED_DATABASE=process (built)',
  () => {
    it('keeps the data directory its own, and its database process ends with it on SIGTERM', {
      timeout: 120_000,
    }, async () => {
      const dataDir = tempDir('scrub-embedded-process-');
      const server = await startBuilt(dataDir);
      const second = spawn(process.execPath, [bin, 'migrate'], {
        env: { ...process.env, SCRUB_DATA_DIR: dataDir, SCRUB_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let refused = '';
      second.stderr.on('data', (chunk) => {
        refused += chunk;
      });
      expect(await new Promise((resolve) => second.once('exit', resolve))).not.toBe(0);
      expect(refused).toContain(`is in use by process ${server.child.pid}`);
      expect(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')).toBe(
        `${server.child.pid}\n${server.database}`,
      );
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(isAlive(server.database)).toBe(false);
    });

    it('takes its database process with it when killed with SIGKILL; the next start opens the data', {
      timeout: 120_000,
    }, async () => {
      const dataDir = tempDir('scrub-embedded-process-');
      const first = await startBuilt(dataDir);
      first.child.kill('SIGKILL');
      await first.exited;
      await expect.poll(() => isAlive(first.database), { timeout: 15_000 }).toBe(false);
      const second = await startBuilt(dataDir);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    });

    it('stops, exit code 1 and a clear error, when its database process dies', {
      timeout: 120_000,
    }, async () => {
      const dataDir = tempDir('scrub-embedded-process-');
      const server = await startBuilt(dataDir);
      process.kill(server.database, 'SIGKILL');
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('the embedded database stopped: the service stops');
      expect(server.output()).toMatch(/The embedded database's process \d+ stopped \(signal SIGKILL\)/);
    });
  },
);
