// Issue 29, item 2, way (2): the embedded database (PGlite) served over the PostgreSQL wire protocol
// by `@electric-sql/pglite-socket` in a child process, to the service's own `pg` code (DATABASE_URL),
// beside way (1), PGlite on a worker thread of its own (SCRUB_EMBEDDED_DATABASE=thread). Runs
// bench/verify.ts and bench/verify-batch.ts on each, alternated thread/socket/thread/socket, each
// bench on a fresh database, and prints /verify's share of the bare route, POST /verify's numbers
// per second, whether the credits were exact, and the CPU time of the whole run (the bench's
// process and, for the socket, the database's process).
//
//   node bench/pglite-socket.ts [rounds] [requests] [connections] [batches] [max-connections] [disk]
//   (defaults: 2 rounds, `verify.ts 10000 64`, `verify-batch.ts 10`, 16 connections, in memory;
//   `disk`: the socket's PGlite on a fresh temporary data directory instead)
//
// The service's `pg` pool holds up to 10 connections (fixed in src/storage/database.ts) and LISTEN
// one more of its own, so the socket server must take at least 11 for the service to start.
// pglite-socket then queues their protocol messages onto PGlite's one session one by one, and under
// load one connection's Parse/Bind/Execute land between another's: `error: portal "" does not
// exist`. Only a pool of 1 (with `max-connections` 2: the pool and LISTEN) is correct; that
// needs the pool's size made a setting: docs/benchmarks.md, "Way (2)", says how it was measured.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROUNDS = Number(process.argv[2] ?? 2);
const REQUESTS = process.argv[3] ?? '10000';
const CONNECTIONS = process.argv[4] ?? '64';
const BATCHES = process.argv[5] ?? '10';
const MAX_CONNECTIONS = process.argv[6] ?? '16';
const ON_DISK = process.argv[7] === 'disk';
const here = import.meta.dirname;

type Way = 'thread' | 'socket';

/** Fields of /proc/PID/stat after the command's closing parenthesis (Linux). */
const statFields = (pid: number | 'self') =>
  readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');

/** User and system CPU time of a running process, in ms (clock ticks of 10 ms). */
const processCpuMs = (pid: number) => (Number(statFields(pid)[11]) + Number(statFields(pid)[12])) * 10;

/** User and system CPU time of this process's children that have ended, in ms. */
const endedChildrenCpuMs = () => (Number(statFields('self')[13]) + Number(statFields('self')[14])) * 10;

/** PGlite behind pglite-socket in a child process; resolves once it listens. */
async function startSocketServer() {
  const dataDir = ON_DISK ? mkdtempSync(join(tmpdir(), 'scrub-pglite-socket-')) : undefined;
  const child = spawn(
    process.execPath,
    [join(here, 'pglite-socket-server.ts'), MAX_CONNECTIONS, ...(dataDir ? [dataDir] : [])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('ready ')) resolve(line.slice('ready '.length));
      else console.log(`  [socket server] ${line}`);
    });
    child.once('exit', (code) =>
      reject(new Error(`the socket server stopped (exit ${code}) before it listened`)),
    );
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    cpuMs: () => processCpuMs(child.pid!),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Result {
  output: string;
  ok: boolean;
  /** CPU time of the bench's process and, for the socket, of the database's process, in ms. */
  cpuMs: number;
}

/** One bench script on a fresh database of `way`. */
async function runBench(way: Way, script: string, args: string[]): Promise<Result> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.SCRUB_EMBEDDED_DATABASE;
  const socket = way === 'socket' ? await startSocketServer() : null;
  if (socket) env.DATABASE_URL = socket.url;
  else env.SCRUB_EMBEDDED_DATABASE = 'thread';
  try {
    const started = endedChildrenCpuMs();
    const run = spawnSync(process.execPath, [join(here, script), ...args], { env, encoding: 'utf8' });
    const benchCpuMs = endedChildrenCpuMs() - started;
    const output = `${run.stdout}${run.stderr}`;
    return { output, ok: run.status === 0, cpuMs: benchCpuMs + (socket?.cpuMs() ?? 0) };
  } finally {
    await socket?.stop();
  }
}

const match = (text: string, pattern: RegExp) => text.match(pattern)?.[1] ?? '?';
const tableRow = (text: string, row: string) =>
  match(text, new RegExp(`│ ${row.replace(/[/()]/g, '\\$&')}\\s*│\\s*(\\d+)`));

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const rows: Record<string, Record<string, string>> = {};
let allExact = true;
for (let round = 1; round <= ROUNDS; round++) {
  for (const way of ['thread', 'socket'] as const) {
    const load = loadAverage();
    const single = await runBench(way, 'verify.ts', [REQUESTS, CONNECTIONS]);
    const batch = await runBench(way, 'verify-batch.ts', [BATCHES]);
    for (const { output, ok } of [single, batch]) {
      if (!ok || !output.includes(': exact')) {
        allExact = false;
        console.log(`--- ${way}, round ${round}: failed or not exact ---\n${output.slice(0, 2000)}`);
      }
    }
    rows[`${round}. ${way}`] = {
      'load (1, 5, 15 min)': load,
      'GET /verify % of bare': match(single.output, /\/verify: ([\d.]+)% of bare/),
      'GET /verify req/s': tableRow(single.output, 'GET /verify'),
      'GET /verify errors': match(single.output, /│ GET \/verify\s*│\s*\d+\s*│\s*\d+\s*│\s*(\d+)/),
      'GET run CPU ms': single.cpuMs.toFixed(0),
      'POST server-side numbers/s': tableRow(batch.output, 'POST /verify, server side'),
      'POST client-side numbers/s': tableRow(batch.output, 'POST /verify, client side'),
      'GET 64 at a time numbers/s': tableRow(batch.output, 'GET /verify, 64 at a time'),
      'batch run CPU ms': batch.cpuMs.toFixed(0),
      credits: single.output.includes(': exact') && batch.output.includes(': exact') ? 'exact' : 'NOT EXACT',
    };
    console.log(`${round}. ${way}:`, rows[`${round}. ${way}`]);
  }
}
console.log(
  `verify.ts ${REQUESTS} ${CONNECTIONS}, verify-batch.ts ${BATCHES}; socket: ${MAX_CONNECTIONS} connections, PGlite ${ON_DISK ? 'on a temporary data directory' : 'in memory'}; Node ${process.version}`,
);
console.table(rows);
if (!allExact) process.exitCode = 1;
