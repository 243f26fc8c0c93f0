// The README's start command, timed: `npx -y pnpm@10 start` from the repository's root, on a new
// data directory, then again on the same one, each time from the command to the first answered
// GET /health. The second start is the warm one (nothing to build, the database exists); it is
// printed beside the first (the ratio) and issue 29's target (3 s).
//
//   pnpm --filter @scrub/server bench          (after `pnpm build`)
//   node bench/warm-start.ts [starts] [root...] (default 2 starts: the first and one warm start)
//
// As a newcomer types it: the bundled Node 24 (`.tools/`, which `pnpm bench` puts first on the
// PATH) is taken off the PATH, so `npx`, pnpm and `scripts/dev.mjs` run on the machine's own Node.
// With several repository roots (for example main's checkout beside a branch's, each built and
// started once), their starts alternate, each on its own data directory: a paired before/after.
//
// Each warm start's steps come from the debug log (SCRUB_LOG_LEVEL=debug: `scripts/dev.mjs` and
// the service log each step's time), and each process's CPU time by the first answer from /proc.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const STARTS = Math.max(2, Number(process.argv[2] ?? 2));
const ROOTS =
  process.argv.length > 3
    ? process.argv.slice(3).map((root) => resolve(root))
    : [new URL('../../..', import.meta.url).pathname];
const COMMAND = ['npx', '-y', 'pnpm@10', 'start'];
const TARGET_SECONDS = 3;
const PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !dir.includes(`${join('.tools', 'node24')}`))
  .join(delimiter);

interface Start {
  seconds: number;
  /** Each step's time from the command, in seconds, in the order logged. */
  steps: [string, number][];
  /** CPU seconds of each process of the command's group by the first answer (Linux only). */
  cpu: [string, number][];
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** The steps `scripts/dev.mjs` (`[scrub] <ms> step`) and the service (`"at":<ms>`) log at debug level. */
function stepsOf(log: string, startedAt: number): [string, number][] {
  const steps: [string, number][] = [];
  for (const line of log.split('\n')) {
    const ours = /^\[scrub\] (\d{13}) (.*)$/.exec(line);
    const service = /"at":(\d{13}),.*"msg":"start: ([^"]*)"/.exec(line);
    const found = ours ?? service;
    if (found)
      steps.push([`${service ? 'service: ' : ''}${found[2]}`, (Number(found[1]) - startedAt) / 1000]);
  }
  return steps;
}

/** CPU seconds (user + system) of each live process in group `pgid`, named by its command line. */
function cpuOfGroup(pgid: number): [string, number][] {
  const ticks = 100; // USER_HZ
  const found: [string, number][] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue; // field 5: the process group
      const seconds = (Number(fields[11]) + Number(fields[12])) / ticks; // fields 14, 15: utime, stime
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const name = command
        .slice(0, 3)
        .map((part) => part.replace(/^.*\/(node_modules|packages|scripts|bin)\//, '$1/'))
        .join(' ');
      found.push([name, seconds]);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Runs the command until /health answers; returns the seconds it took and its steps, and stops it. */
async function timeStart(root: string, dataDir: string): Promise<Start> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const startedAt = Date.now();
  const started = performance.now();
  // Its own process group: pnpm, scripts/dev.mjs and the service are stopped together.
  const child = spawn(COMMAND[0] as string, COMMAND.slice(1), {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      PATH,
      SCRUB_DATA_DIR: dataDir,
      SCRUB_PORT: String(port),
      SCRUB_LOG_LEVEL: 'debug',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr.on('data', (chunk) => {
    log += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    while (!(await answers(`http://127.0.0.1:${port}/health`))) {
      if (child.exitCode !== null)
        throw new Error(`${COMMAND.join(' ')} exited with ${child.exitCode}:\n${log}`);
      if (performance.now() - started > 300_000) throw new Error('no answer from /health in 300 s');
      await sleep(20);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = child.pid === undefined ? [] : cpuOfGroup(child.pid);
    return { seconds, steps: [...stepsOf(log, startedAt), ['/health answered', seconds]], cpu };
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const dataDirs = ROOTS.map(() => mkdtempSync(join(tmpdir(), 'scrub-warm-start-bench-')));
const starts: Start[][] = ROOTS.map(() => []);
const loads: string[] = [loadAverage()];
try {
  for (let i = 0; i < STARTS; i++) {
    for (const [r, root] of ROOTS.entries()) starts[r]?.push(await timeStart(root, dataDirs[r] as string));
    loads.push(loadAverage());
  }
} finally {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}

console.log(
  `${COMMAND.join(' ')} to the first answered GET /health, on a new data directory, Node ${PATH === process.env.PATH ? 'as on the PATH' : "of the machine's PATH (.tools/node24 taken off)"}`,
);
console.log(`load average (1, 5, 15 min) before and after each round: ${loads.join(' | ')}`);
for (const [r, root] of ROOTS.entries()) {
  const [first, ...warm] = starts[r] as [Start, ...Start[]];
  console.log(`\n${root}`);
  console.table({
    'first start (new database)': { seconds: Number(first.seconds.toFixed(2)), 'of the first': '1.00x' },
    ...Object.fromEntries(
      warm.map((start, i) => [
        `start ${i + 2} (warm)`,
        {
          seconds: Number(start.seconds.toFixed(2)),
          'of the first': `${(start.seconds / first.seconds).toFixed(2)}x`,
          [`target ${TARGET_SECONDS} s`]: start.seconds <= TARGET_SECONDS ? 'met' : 'missed',
        },
      ]),
    ),
  });
  // The warm starts' steps side by side: seconds from the command.
  const names = [...new Set(warm.flatMap((start) => start.steps.map(([name]) => name)))];
  console.table(
    Object.fromEntries(
      names.map((name) => [
        name,
        Object.fromEntries(
          warm.map((start, i) => [
            `start ${i + 2}`,
            start.steps.find(([step]) => step === name)?.[1].toFixed(2),
          ]),
        ),
      ]),
    ),
  );
  const processes = [...new Set(warm.flatMap((start) => start.cpu.map(([name]) => name)))];
  if (processes.length > 0) {
    console.log('CPU seconds of each process by the first answer:');
    console.table(
      Object.fromEntries(
        processes.map((name) => [
          name,
          Object.fromEntries(
            warm.map((start, i) => [
              `start ${i + 2}`,
              start.cpu.find(([process]) => process === name)?.[1].toFixed(2),
            ]),
          ),
        ]),
      ),
    );
  }
}
