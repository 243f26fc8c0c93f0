// A bulk job end to end over HTTP (create, upload, submit, the worker, result ready) beside a bare
// csv-parse -> csv-stringify pass over the same file, in one run.
//
//   pnpm --filter @scrub/server bench          (after `pnpm build`)
//   node bench/bulk.ts [--rows 1000000] [--rounds 3]
//   DATABASE_URL=postgres://... node bench/bulk.ts --rows 10000000 --rounds 1
//   DATABASE_URL=postgres://... node bench/bulk.ts --rows 3000000 --rounds 1 --s3
//
// Target (issue 5): the job takes at most half the time of the bare pass, and the worker's memory
// does not grow with the file: at most 256 MB for 10,000,000 rows.
//
// Each subject runs in processes of its own, best of `rounds`. The bare pass reads and writes the
// file on disk with 1 MiB chunks. For the job, a child process starts the server with startServer:
// PGlite in memory; or, with DATABASE_URL, that PostgreSQL and two processes, one answering the
// API (SCRUB_BULK_WORKER=false) and one running the worker, so that the worker's memory is its own.
// Uploads and results go to a temporary data directory, or with --s3 to an S3-protocol server
// (s3rver) in this process; the data directory holds a 2 M-number federal do-not-call list
// imported with `scrub-server data import ftc`; an account gets credits and an API key. This
// process is the client, over loopback as a customer's would be: it PUTs the file, streamed from
// disk, to the upload URL, submits, and polls GET /bulk/jobs/{id} every 50 ms until the job
// completes; a 20,000-row job on the same server goes first, as on a server that has been up a
// while. The servers sample their resident memory every 20 ms over the measured job; their peak
// over their whole life (`maxRSS`) includes starting the embedded database.
//
// The file is generated (deterministic, @scrub/test-fixtures' lead list): lead columns (first and
// last name, email, street, city, state, zip, phone, date of birth), some streets quoted with a
// comma, phones in the forms people and spreadsheets write, 3% repeats, 3% junk, 3% toll free, 12%
// on the do-not-call list.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import S3rver from '@20minutes/s3rver';
import type { BulkJob, CreatedBulkJob } from '@scrub/contract';
import { areaCodeInfo } from '@scrub/engine';
import {
  federalListLines,
  leadLines,
  mulberry32,
  spreadPool,
  usAreaCodes,
  writeLines,
} from '@scrub/test-fixtures';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

/** The bare pass, as its process reports it. */
interface BareMeasure {
  seconds: number;
  rows: number;
  /** Peak resident memory of the process, bytes. */
  peakRss: number;
}

/** What the server's process says once it is ready. */
interface ServerReady {
  url: string;
  apiKey: string;
}

/** The server's memory, bytes: sampled before and during the job, and its peak over its life. */
interface ServerMemory {
  idleRss: number;
  jobPeakRss: number;
  maxRss: number;
}

interface JobMeasure extends ServerMemory {
  /** On PostgreSQL: the process that runs the job, apart from the one answering the API. */
  worker?: ServerMemory;
  /** From POST /bulk/jobs to the poll that sees `completed`. */
  seconds: number;
  create: number;
  upload: number;
  submit: number;
  processing: number;
  rows: number;
  duplicates: number;
  charged: number;
  reversed: number;
  lineTypes: Record<string, number>;
  dnc: Record<string, number>;
}

// The federal list holds POOL numbers; 12% of the file's phones are drawn from them.
const POOL = 2_000_000;
const AREA_CODES = usAreaCodes(areaCodeInfo);
const pool = spreadPool(POOL, AREA_CODES);
// One sequence for both files: the warm-up file continues where the measured one ends.
const leads = { random: mulberry32(0xb01c), areaCodes: AREA_CODES, pool };

const CHUNK = { highWaterMark: 1 << 20 };
const S3_BUCKET = 'scrub-bench';
const WARM_UP_ROWS = 20_000;
const since = (start: number) => (performance.now() - start) / 1000;

/** The bare pass, in its own process (`--bare`). */
async function bare(path: string, outPath: string): Promise<BareMeasure> {
  const began = performance.now();
  const parser = parse();
  await pipeline(createReadStream(path, CHUNK), parser, stringify(), createWriteStream(outPath, CHUNK));
  return {
    seconds: since(began),
    rows: parser.info.records - 1,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

type Role = 'all' | 'api' | 'worker';

/**
 * A server in its own process (`--server <role>`): 'all' answers the API and runs the worker,
 * 'api' and 'worker' split them (on PostgreSQL only: the embedded database belongs to one
 * process). Says where it listens and with which key, samples its memory from when its parent says
 * `measure` until it says anything else, answers the figures, and stops.
 */
async function serve(role: Role, dataDir: string, credits: number): Promise<void> {
  // Here only, so that the bare pass's process does not load the server.
  const { applyLedgerEntry, ensureProfile, loadConfig, rotateApiKey, startServer } = await import(
    '@scrub/server'
  );
  const url = process.env.DATABASE_URL;
  const config = loadConfig(
    {
      SCRUB_LOG_LEVEL: 'silent',
      SCRUB_DATA_DIR: dataDir,
      SCRUB_BULK_WORKER: role === 'api' ? 'false' : 'true',
      ...(url ? { DATABASE_URL: url } : {}),
      ...(process.env.BENCH_S3_ENDPOINT
        ? {
            SCRUB_S3_BUCKET: S3_BUCKET,
            SCRUB_S3_REGION: 'us-east-1',
            SCRUB_S3_ENDPOINT: process.env.BENCH_S3_ENDPOINT,
            SCRUB_S3_FORCE_PATH_STYLE: 'true',
          }
        : {}),
    },
    { host: '127.0.0.1', port: 0, ...(url ? {} : { database: { kind: 'pglite', dataDir: null } }) },
  );
  const server = await startServer(config, false);
  let apiKey = '';
  if (role !== 'worker') {
    const db = server.database.db;
    const profile = await ensureProfile(db, {
      sub: 'bench-bulk',
      email: 'bench-bulk@example.com',
      name: 'Bench',
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
    ({ api_key: apiKey } = await rotateApiKey(db, profile.id));
  }
  const ready: ServerReady = { url: server.url, apiKey };
  process.stdout.write(`${JSON.stringify(ready)}\n`);

  const memory: ServerMemory = { idleRss: 0, jobPeakRss: 0, maxRss: 0 };
  let sampler: NodeJS.Timeout | undefined;
  for await (const command of createInterface({ input: process.stdin })) {
    if (command !== 'measure') break;
    memory.idleRss = process.memoryUsage.rss();
    memory.jobPeakRss = memory.idleRss;
    sampler = setInterval(() => {
      memory.jobPeakRss = Math.max(memory.jobPeakRss, process.memoryUsage.rss());
    }, 20);
    process.stdout.write('measuring\n');
  }
  clearInterval(sampler);
  memory.maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify(memory)}\n`);
  await server.close();
}

/** A server's process, spoken to a line at a time. */
function serverProcess(role: Role, dataDir: string, credits: number) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), '--server', role, dataDir, String(credits)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async line(): Promise<string> {
      const next = await lines.next();
      if (next.done) throw new Error(`The ${role} server's process ended early`);
      return next.value;
    },
    async say(command: string): Promise<string> {
      child.stdin.write(`${command}\n`);
      return this.line();
    },
    async stop(): Promise<void> {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts the server (on PostgreSQL, an API process and a worker process), runs a small job and
 * then the measured one on it as a client, and collects the servers' memory.
 */
async function bulkJob(path: string, warmUpPath: string, dataDir: string, rows: number): Promise<JobMeasure> {
  const split = process.env.DATABASE_URL !== undefined;
  const servers = split
    ? [serverProcess('api', dataDir, rows + WARM_UP_ROWS), serverProcess('worker', dataDir, 0)]
    : [serverProcess('all', dataDir, rows + WARM_UP_ROWS)];
  try {
    const [{ url, apiKey }] = (await Promise.all(servers.map(async (server) => server.line()))).map(
      (line) => JSON.parse(line) as ServerReady,
    ) as [ServerReady];
    const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };

    /** One job, timed from its creation to the poll that sees it completed. */
    const run = async (file: string) => {
      const began = performance.now();
      const created = await api<CreatedBulkJob>('POST', '/bulk/jobs', {
        file_name: 'leads.csv',
        phone_col: 'phone',
        header_row: 1,
      });
      const create = since(began);
      let step = performance.now();
      const upload = await fetch(created.upload_url!, {
        method: 'PUT',
        headers: { 'content-type': 'text/csv' },
        body: Readable.toWeb(createReadStream(file, CHUNK)) as ReadableStream<Uint8Array>,
        duplex: 'half',
      });
      if (!upload.ok) throw new Error(`PUT upload_url: ${upload.status} ${await upload.text()}`);
      const uploaded = since(step);
      step = performance.now();
      await api<BulkJob>('POST', `/bulk/jobs/${created.job_id}/submit`);
      const submit = since(step);
      step = performance.now();
      let job: BulkJob;
      for (;;) {
        job = await api<BulkJob>('GET', `/bulk/jobs/${created.job_id}`);
        if (job.status === 'completed' || job.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (job.status !== 'completed') throw new Error(`The job failed: ${job.error}`);
      return { job, seconds: since(began), create, upload: uploaded, submit, processing: since(step) };
    };

    // A small job first, as a server that has been up for a while has run one: code compiled, pools open.
    await run(warmUpPath);
    await Promise.all(servers.map((server) => server.say('measure')));
    const { job, ...times } = await run(path);
    const [memory, worker] = await Promise.all(
      servers.map(async (server) => JSON.parse(await server.say('report')) as ServerMemory),
    );
    return {
      ...memory!,
      ...(worker ? { worker } : {}),
      ...times,
      rows: job.total_rows ?? 0,
      duplicates: job.duplicates,
      charged: job.credits_charged,
      reversed: job.credits_reversed,
      lineTypes: job.line_types,
      dnc: job.dnc_status,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const sec = (seconds: number) => `${seconds.toFixed(2)} s`;
const count = (n: number) => n.toLocaleString('en-US');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      rounds: { type: 'string', default: '3' },
      s3: { type: 'boolean', default: false },
    },
  });
  const rows = Number(values.rows);
  const rounds = Number(values.rounds);
  if (!Number.isSafeInteger(rows) || rows < 1 || !Number.isSafeInteger(rounds) || rounds < 1) {
    throw new Error('--rows and --rounds take whole numbers, at least 1');
  }
  const dir = await mkdtemp(join(tmpdir(), 'scrub-bulk-bench-'));
  // With --s3, files go to an S3-protocol server (s3rver) in this process, as the tests' is.
  const s3 = values.s3
    ? new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: join(dir, 's3'),
        configureBuckets: [{ name: S3_BUCKET }],
      })
    : null;
  if (s3) {
    const { port } = await s3.run();
    Object.assign(process.env, {
      BENCH_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
  }
  try {
    const path = join(dir, 'leads.csv');
    const dataDir = join(dir, 'data');
    let began = performance.now();
    await writeLines(path, leadLines(rows, leads));
    const { size } = await stat(path);
    const warmUpPath = join(dir, 'warm-up.csv');
    await writeLines(warmUpPath, leadLines(WARM_UP_ROWS, leads));
    const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in memory';
    out(
      `Node ${process.version}; ${count(rows)} rows, ${mb(size)}, generated in ${sec(since(began))}; database: ${database}; files: ${s3 ? 'S3 (s3rver)' : 'local'}`,
    );

    began = performance.now();
    const listPath = join(dir, 'federal.txt');
    await writeLines(listPath, federalListLines(pool));
    const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
    const imported = spawnSync(
      process.execPath,
      [bin, 'data', 'import', 'ftc', listPath, '--released', new Date().toISOString().slice(0, 10)],
      {
        env: { PATH: process.env.PATH, SCRUB_DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    );
    if (imported.status !== 0) throw new Error(`scrub-server data import ftc failed: ${imported.stderr}`);
    await rm(listPath);
    out(`federal do-not-call list of ${count(POOL)} numbers imported in ${sec(since(began))}`);

    let bestBare: BareMeasure | undefined;
    let bestJob: JobMeasure | undefined;
    for (let round = 0; round < rounds; round++) {
      const child = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--bare', path, join(dir, 'out.csv')],
        { encoding: 'utf8' },
      );
      if (child.status !== 0) throw new Error(`the bare pass failed: ${child.stderr}`);
      await rm(join(dir, 'out.csv'), { force: true });
      const bareRun = JSON.parse(child.stdout) as BareMeasure;
      if (!bestBare || bareRun.seconds < bestBare.seconds) bestBare = bareRun;

      const jobRun = await bulkJob(path, warmUpPath, dataDir, rows);
      await rm(join(dataDir, 'files'), { recursive: true, force: true });
      if (!bestJob || jobRun.seconds < bestJob.seconds) bestJob = jobRun;
      const worker = jobRun.worker ?? jobRun;
      out(
        `round ${round + 1}: bare ${sec(bareRun.seconds)}, job ${sec(jobRun.seconds)} (upload ${sec(jobRun.upload)}, submit ${sec(jobRun.submit)}, processing ${sec(jobRun.processing)}); ` +
          `the worker's process ${mb(worker.idleRss)} idle, ${mb(worker.jobPeakRss)} at most during the job`,
      );
    }
    const baseline = bestBare!;
    const job = bestJob!;
    const ratio = job.seconds / baseline.seconds;

    out();
    out('| subject | time | rows/s | MB/s | share of the bare pass | peak RSS |');
    out('| --- | --- | --- | --- | --- | --- |');
    const row = (subject: string, seconds: number, memory: string) =>
      out(
        `| ${subject} | ${sec(seconds)} | ${(rows / seconds / 1e6).toFixed(2)} M | ${(size / 2 ** 20 / seconds).toFixed(0)} | ${(seconds / baseline.seconds).toFixed(2)}x | ${memory} |`,
      );
    row('csv-parse -> csv-stringify', baseline.seconds, mb(baseline.peakRss));
    const during = (memory: ServerMemory) =>
      `${mb(memory.jobPeakRss)} during the job (${mb(memory.idleRss)} idle; ${mb(memory.maxRss)} over its life)`;
    row(
      'bulk job over HTTP',
      job.seconds,
      job.worker ? `API: ${during(job)}; worker: ${during(job.worker)}` : during(job),
    );
    out();
    out(
      `the job: create ${sec(job.create)}, upload ${sec(job.upload)}, submit (counting) ${sec(job.submit)}, processing until completed ${sec(job.processing)}`,
    );
    out(
      `${count(job.rows)} rows, ${count(job.duplicates)} duplicates, ${count(job.charged)} credits charged, ${count(job.reversed)} given back; ` +
        `line types ${JSON.stringify(job.lineTypes)}, DNC ${JSON.stringify(job.dnc)}`,
    );
    const worker = job.worker ?? job;
    out(
      `end to end: ${ratio.toFixed(2)}x the bare pass (target at most 0.5x): ${ratio <= 0.5 ? 'met' : 'NOT MET'}; ` +
        `the worker's process peaked at ${mb(worker.jobPeakRss)} during the job, ${mb(worker.jobPeakRss - worker.idleRss)} above idle (target at most 256 MB)`,
    );
    if (job.rows !== rows || baseline.rows !== rows) {
      out(
        `ROWS DIFFER: generated ${count(rows)}, the job ${count(job.rows)}, the bare pass ${count(baseline.rows)}`,
      );
      process.exitCode = 1;
    }
  } finally {
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const [mode, first, second] = process.argv.slice(2);
if (mode === '--bare') {
  process.stdout.write(JSON.stringify(await bare(first!, second!)));
} else if (mode === '--server') {
  const [role, dataDir, credits] = process.argv.slice(3);
  await serve(role as Role, dataDir!, Number(credits));
} else {
  await main();
}
