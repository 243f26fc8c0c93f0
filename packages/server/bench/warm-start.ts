// The README's start command, timed: `npx -y pnpm@10 start` from the repository's root, on a new
// data directory, then again on the same one, each time from the command to the first answered
// GET /health. The second start is the warm one (nothing to build, the database exists); it is
// printed beside the first (the ratio) and issue 16's goal 8 target.
//
//   pnpm --filter @scrub/server bench          (after `pnpm build`)
//   node bench/warm-start.ts [starts]          (default 2: the first and one warm start)
//
// Each start's own steps: SCRUB_LOG_LEVEL=debug npx -y pnpm@10 start (scripts/dev.mjs and the
// service log each step's time).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const STARTS = Math.max(2, Number(process.argv[2] ?? 2));
const ROOT = new URL('../../..', import.meta.url).pathname;
const COMMAND = ['npx', '-y', 'pnpm@10', 'start'];
const TARGET_SECONDS = 5;

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Runs the command until /health answers; returns the seconds it took, and stops it. */
async function timeStart(dataDir: string): Promise<number> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  // Its own process group: pnpm, scripts/dev.mjs and the service are stopped together.
  const child = spawn(COMMAND[0] as string, COMMAND.slice(1), {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, SCRUB_DATA_DIR: dataDir, SCRUB_PORT: String(port), SCRUB_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    while (!(await answers(`http://127.0.0.1:${port}/health`))) {
      if (child.exitCode !== null) throw new Error(`${COMMAND.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > 300_000) throw new Error('no answer from /health in 300 s');
      await sleep(20);
    }
    return (performance.now() - started) / 1000;
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'scrub-warm-start-bench-'));
const seconds: number[] = [];
try {
  for (let i = 0; i < STARTS; i++) seconds.push(await timeStart(dataDir));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const [first, ...warm] = seconds as [number, ...number[]];
console.log(`${COMMAND.join(' ')} to the first answered GET /health, on a new data directory`);
console.table({
  'first start (new database)': { seconds: Number(first.toFixed(2)), 'of the first': '1.00x' },
  ...Object.fromEntries(
    warm.map((s, i) => [
      `start ${i + 2} (warm)`,
      {
        seconds: Number(s.toFixed(2)),
        'of the first': `${(s / first).toFixed(2)}x`,
        [`target ${TARGET_SECONDS} s`]: s <= TARGET_SECONDS ? 'met' : 'missed',
      },
    ]),
  ),
});
