// The embedded default's memory: `scrub-server start` (the built binary) on a new data directory,
// then again on the same one, each time the peak resident memory up to the first answered
// GET /health and the resident memory after idling 10 s, beside issue 16's goal 7 targets and the
// figures before the work on it. Then the same with `node --liftoff-only`, the opt-in for small
// machines (docs/operations.md, "Memory of the embedded database").
//
//   pnpm --filter @scrub/server bench          (after `pnpm build`)
//   node bench/memory.ts [idle seconds]        (default 10)
//
// Each start runs once per place of the embedded database (SCRUB_EMBEDDED_DATABASE: inline, thread,
// process) and once inline under `node --liftoff-only`. With `process`, PGlite runs in a child of
// the service: the peak and idle figures are the WHOLE process tree's, the service's and its
// children's added up. Each process's peak is its own (the kernel keeps no peak for a tree), so the
// sum of the peaks is at least the tree's true peak, never less: an honest upper bound.
//
// Linux only: the figures come from /proc/<pid>/status (VmHWM, the kernel's own peak, and VmRSS).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const IDLE_SECONDS = Number(process.argv[2] ?? 10);
const BIN = new URL('../dist/bin.js', import.meta.url).pathname;
const TARGET = { peak: 400, idle: 250 };
/** Measured 2026-11-25 on this script's method before goal 7's changes (PGlite's defaults). */
const BEFORE = { first: { peak: 1196, idle: 493 }, second: { peak: 894, idle: 401 } };

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
}

/** `pid` and its descendants, from /proc/<pid>/task/<tid>/children. */
function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}

/** The field summed over the process tree, in MB; and how many processes that was. */
function treeMb(pid: number, field: 'VmHWM' | 'VmRSS'): { mb: number; processes: number } {
  const pids = processTree(pid);
  const kb = pids.reduce((sum, each) => sum + statusKb(each, field), 0);
  return { mb: Math.round(kb / 1024), processes: pids.length };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Starts the binary on `dataDir` with `nodeArgs`, waits for /health, idles, and stops it. */
async function measure(
  dataDir: string,
  nodeArgs: string[],
  mode: string,
): Promise<{ ready: number; peak: number; idle: number; processes: number }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'start'], {
    env: {
      ...process.env,
      SCRUB_DATA_DIR: dataDir,
      SCRUB_PORT: String(port),
      SCRUB_LOG_LEVEL: 'warn',
      SCRUB_EMBEDDED_DATABASE: mode,
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${BIN}`);
    const started = performance.now();
    while (!(await answers(`http://127.0.0.1:${port}/health`))) {
      if (child.exitCode !== null) throw new Error(`scrub-server exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error('no answer from /health in 120 s');
      await sleep(50);
    }
    const ready = (performance.now() - started) / 1000;
    await sleep(IDLE_SECONDS * 1000);
    const peak = treeMb(pid, 'VmHWM');
    return { ready, peak: peak.mb, idle: treeMb(pid, 'VmRSS').mb, processes: peak.processes };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const verdict = (mb: number, target: number) => (mb <= target ? 'met' : 'missed');
const rows: Record<string, Record<string, number | string>> = {};
const RUNS: { mode: string; nodeArgs: string[] }[] = [
  { mode: 'inline', nodeArgs: [] },
  { mode: 'thread', nodeArgs: [] },
  { mode: 'process', nodeArgs: [] },
  { mode: 'inline', nodeArgs: ['--liftoff-only'] },
];
for (const { mode, nodeArgs } of RUNS) {
  const dataDir = mkdtempSync(join(tmpdir(), 'scrub-memory-bench-'));
  try {
    const first = await measure(dataDir, nodeArgs, mode);
    const second = await measure(dataDir, nodeArgs, mode);
    const how = `${['node', ...nodeArgs].join(' ')}, ${mode}`;
    for (const [label, now, before] of [
      ['first start (new database)', first, BEFORE.first],
      ['second start (existing)', second, BEFORE.second],
    ] as const) {
      rows[`${how}, ${label}`] = {
        'ready s': Number(now.ready.toFixed(1)),
        processes: now.processes,
        'peak MB': now.peak,
        'peak before': before.peak,
        [`peak target ${TARGET.peak}`]: verdict(now.peak, TARGET.peak),
        'idle MB': now.idle,
        'idle before': before.idle,
        [`idle target ${TARGET.idle}`]: verdict(now.idle, TARGET.idle),
      };
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(
  `scrub-server start on the embedded database, ${IDLE_SECONDS} s idle, Node ${process.version}; peak and idle summed over the process tree`,
);
console.table(rows);
