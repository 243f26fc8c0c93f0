// Small bulk jobs as a CI user feels them: a 10-row inline job, from POST /bulk/jobs to its result
// downloaded, over loopback, median of many. Two ways of learning that the job ended, in one run:
//
// - held: GET /bulk/jobs/{id}?wait=20 (the SDK's `bulk.wait`): the answer comes when the worker
//   records the end (LISTEN/NOTIFY between processes);
// - polled (the baseline, the SDK's way before): GET /bulk/jobs/{id} at once, then after 0.5 s,
//   1 s, 2 s..., as `bulk.wait` did with its default poll interval.
//
//   pnpm --filter @scrub/server bench                    (after `pnpm build`)
//   node bench/small-jobs.ts [--jobs 30]
//   DATABASE_URL=postgres://... node bench/small-jobs.ts   (an API server and a worker server, apart)
//
// Target (issue 16, goal 3): at most 100 ms median on both setups; issue 29: at most 30 ms. With DATABASE_URL the API and
// the worker are two servers on the same database, each with its own connections, as two
// processes are: the worker learns of the job, and the API of its end, only through the database.
import { parseArgs } from 'node:util';
import type { BulkJob, CreatedBulkJob } from '@scrub/contract';
import {
  applyLedgerEntry,
  ensureProfile,
  loadConfig,
  type RunningServer,
  rotateApiKey,
  startServer,
} from '@scrub/server';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '30' } } });
const JOBS = Number(values.jobs);
const LIMITS = {
  SCRUB_RATE_LIMIT_PER_KEY: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ACCOUNT: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ADDRESS: '1000000/s',
};
const CSV = ['phone', ...Array.from({ length: 10 }, (_, i) => `201555${String(1000 + i)}`)].join('\n');

async function start(env: Record<string, string>): Promise<RunningServer> {
  const url = process.env.DATABASE_URL;
  const database = url ? { kind: 'postgres' as const, url } : { kind: 'pglite' as const, dataDir: null };
  // OTEL_TRACES_EXPORTER=console prints each job's spans (its statements and file-store calls, timed).
  const tracing = process.env.OTEL_TRACES_EXPORTER
    ? { OTEL_TRACES_EXPORTER: process.env.OTEL_TRACES_EXPORTER }
    : {};
  return startServer(loadConfig({ ...LIMITS, ...tracing, ...env }, { port: 0, database }), false);
}

type Wait = (base: string, headers: Record<string, string>, jobId: string) => Promise<void>;

const terminal = (status: string) => status === 'completed' || status === 'failed';

const held: Wait = async (base, headers, jobId) => {
  for (;;) {
    const job = (await (await fetch(`${base}/bulk/jobs/${jobId}?wait=20`, { headers })).json()) as BulkJob;
    if (terminal(job.status)) return;
  }
};

const polled: Wait = async (base, headers, jobId) => {
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    const job = (await (await fetch(`${base}/bulk/jobs/${jobId}`, { headers })).json()) as BulkJob;
    if (terminal(job.status)) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
};

/** One job, create to result on hand, in milliseconds. */
async function oneJob(base: string, headers: Record<string, string>, wait: Wait): Promise<number> {
  const started = performance.now();
  const created = await fetch(`${base}/bulk/jobs`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ file_name: 'ci.csv', phone_col: 'phone', csv_content: CSV }),
  });
  const job = (await created.json()) as CreatedBulkJob;
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(job)}`);
  await wait(base, headers, job.job_id);
  const result = await fetch(`${base}/files/${job.file_reference}/result`);
  const text = await result.text();
  if (result.status !== 200 || text.split('\n').length < 11)
    throw new Error(`result: ${result.status} ${text}`);
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const separate = Boolean(process.env.DATABASE_URL);
const api = await start(separate ? { SCRUB_BULK_WORKER: 'false' } : {});
const worker = separate ? await start({}) : null;
try {
  const db = api.database.db;
  const profile = await ensureProfile(db, {
    sub: 'bench-small',
    email: 'small@example.com',
    name: '',
    role: 'User',
  });
  await applyLedgerEntry(db, { profileId: profile.id, delta: 1_000_000, kind: 'grant' });
  const headers = { 'x-api-key': (await rotateApiKey(db, profile.id)).api_key };
  const base = api.url;
  // Warm-up: the first job of a fresh server pays for loading its code.
  await oneJob(base, headers, held);
  await oneJob(base, headers, polled);
  const times = { held: [] as number[], polled: [] as number[] };
  /** The process's CPU time per held job: less at the mercy of other work on the machine than the clock. */
  const heldCpu: number[] = [];
  for (let i = 0; i < JOBS; i++) {
    // Alternated, so both see the same machine.
    const cpu = process.cpuUsage();
    times.held.push(await oneJob(base, headers, held));
    const used = process.cpuUsage(cpu);
    heldCpu.push((used.user + used.system) / 1000);
    times.polled.push(await oneJob(base, headers, polled));
  }
  const setup = separate ? 'PostgreSQL, API and worker apart' : 'embedded (PGlite), one process';
  const heldMs = median(times.held);
  const polledMs = median(times.polled);
  console.log(`small jobs (${setup}), 10 rows inline, create to result downloaded, median of ${JOBS}:`);
  console.log(`  held (GET ?wait=):        ${heldMs.toFixed(1)} ms  (target: at most 30 ms)`);
  console.log(
    `  held, CPU time per job:   ${median(heldCpu).toFixed(1)} ms  (this process: client, API and worker)`,
  );
  console.log(`  polled (0.5 s, doubling): ${polledMs.toFixed(1)} ms`);
  console.log(`  ratio held/polled:        ${(heldMs / polledMs).toFixed(2)}x`);
} finally {
  await worker?.close();
  await api.close();
}
