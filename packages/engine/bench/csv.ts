// Bulk CSV scrubbing beside a bare csv-parse -> csv-stringify pass over the same file, in one run.
//
//   pnpm --filter @scrub/engine bench:csv
//   node bench/csv.ts [rows] [rounds] [--crm] [--warm] [--scrubs] [--in-thread] [--dist]
//   (default 1,000,000 rows, 3 rounds)
//
// Target (issue 5): scrubbing takes at most half the time of the bare pass. Each subject runs in
// its own process, file to file on disk (what the worker does between the upload and the result),
// best of `rounds`, so that each reports its own peak memory.
//
// Target (issue 16, goal 6): scrubCsvInParallel on the machine's cores (available parallelism) at
// least 1.6 times as fast as scrubCsv on 2 cores, with the same result (checked here too). Each
// round prints the two scrubs' times side by side (run one after the other: a pair), and each
// subject's CPU by thread (Linux): the caller's thread, the part threads, V8's helper threads (its
// optimising compiler and garbage collector), libuv's (file reads and writes). With --warm, each
// subject first scrubs the file once, unmeasured, in the same process: what a service's worker does
// for every job after its first (its code optimised, its part threads kept warm). With --scrubs,
// only the two scrubs run (the pairs, without the bare pass and the counted scrub). With
// --in-thread, both scrubs take the server's path: `scrubCsvInThread` with `threads` 1 and 2 (the
// job's thread coordinates). With --dist, the engine is the built one (`pnpm build:js` first), as
// the server runs it.
//
// The file is generated (deterministic, @scrub/test-fixtures' lead list): lead columns (first and
// last name, email, street, city, state, zip, phone, date of birth), some streets quoted with a
// comma, phones in the forms people and spreadsheets write (plain, dashed, dotted, bracketed, +1,
// spreadsheet floats, extensions, quoted), 3% repeats, 3% junk, 3% toll free, 12% on the
// do-not-call list. With --crm, the file is the CRM export of issue 16's goal 1 instead
// (`crmLeadLines`: name, email, phone, notes; phones spelled `+1 201 555 0123`, `(201)555-0123 x12`,
// `2015550123.0`, `201.555.0123`; 5% of the notes quoted over several lines), the customer job's file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import {
  compactPool,
  crmLeadLines,
  leadLines,
  mulberry32,
  usAreaCodes,
  writeLines,
} from '@scrub/test-fixtures';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

const FLAGS = ['--crm', '--warm', '--scrubs', '--in-thread', '--dist'] as const;
const flag = (name: (typeof FLAGS)[number]) => process.argv.includes(name);
// The engine from source (Node strips its types as it loads it, on every thread), or built (`pnpm build:js`).
const enginePath = flag('--dist') ? '../dist/index.js' : '../src/index.ts';
const {
  areaCodeInfo,
  countCsvRows,
  DncListBuilder,
  DncSet,
  sampleExchangeTable,
  scrubCsv,
  scrubCsvInParallel,
  scrubCsvInThread,
}: typeof import('../src/index.ts') = await import(enginePath);

// The last is what a job does: its records counted when it is submitted, then the scrub.
const THREADS = availableParallelism();
const PARALLEL = `scrubCsvInParallel, ${THREADS} threads`;
const SUBJECTS = ['csv-parse -> csv-stringify', 'scrubCsv', 'countCsvRows + scrubCsv', PARALLEL] as const;
type Subject = (typeof SUBJECTS)[number];
const SCRUBS: readonly Subject[] = ['scrubCsv', PARALLEL];

interface Measure {
  seconds: number;
  /** CPU time of the process over the subject, every thread's, seconds. */
  cpuSeconds: number;
  /** Peak resident memory of the process, bytes. */
  peakRss: number;
  /** Resident memory when the subject started (after building its tables), bytes. */
  startRss: number;
  rows: number;
  uniqueNumbers?: number;
  dnc?: number;
  /** The result's counts, to compare the scrubs. */
  result?: string;
  /** CPU seconds by thread name (`threadCpu`). */
  threads: Record<string, number>;
}

/**
 * CPU seconds of this process's threads so far, by name (summed over threads of one name):
 * `MainThread`, `WorkerThread` (Node's worker threads), `V8Worker` (V8's helpers), `libuv-worker`.
 * Read from /proc (Linux); empty elsewhere. A thread that has exited is no longer counted.
 */
function threadCpu(): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return byName;
  }
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // utime and stime, the 14th and 15th fields, in clock ticks (100 a second).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread exited meanwhile.
    }
  }
  return byName;
}

// The do-not-call list holds POOL numbers; 12% of the file's phones are drawn from them. They sit
// in 16,384 exchanges: building a list takes working space per exchange touched, and the benchmark
// measures the scrub's memory, not the list builder's.
const POOL = 2_000_000;
const US_AREA_CODES = usAreaCodes(areaCodeInfo);
const pool = compactPool(POOL, US_AREA_CODES, 16_384);

// Both subjects read and write the file in 1 MiB chunks, as the worker should: 64 KiB reads (the
// default) leave the scrub waiting on the disk for a fifth of its time.
const CHUNK = { highWaterMark: 1 << 20 };

/** One subject, in this process: what the parent spawns. */
async function runSubject(subject: Subject, path: string, outPath: string, warm: boolean): Promise<Measure> {
  let options = {};
  if (subject !== 'csv-parse -> csv-stringify') {
    const builder = new DncListBuilder('federal');
    for (let i = 0; i < POOL; i++) builder.add(pool.number(i));
    options = { exchange: sampleExchangeTable(), dnc: new DncSet([builder.build('bench')]) };
  }
  if (warm) await runOnce(subject, path, outPath, options);
  const startRss = process.memoryUsage.rss();
  const threadsBefore = threadCpu();
  const cpu = process.cpuUsage();
  const began = process.hrtime.bigint();
  const measure = await runOnce(subject, path, outPath, options);
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const threads: Record<string, number> = {};
  for (const [name, after] of threadCpu()) {
    const spent = after - (threadsBefore.get(name) ?? 0);
    if (spent > 0) threads[name] = spent;
  }
  return {
    ...measure,
    seconds,
    cpuSeconds,
    threads,
    startRss,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

async function runOnce(
  subject: Subject,
  path: string,
  outPath: string,
  options: object,
): Promise<Omit<Measure, 'seconds' | 'cpuSeconds' | 'peakRss' | 'startRss' | 'threads'>> {
  let measure: Omit<Measure, 'seconds' | 'cpuSeconds' | 'peakRss' | 'startRss' | 'threads'>;
  if (subject === 'csv-parse -> csv-stringify') {
    const parser = parse();
    await pipeline(createReadStream(path, CHUNK), parser, stringify(), createWriteStream(outPath, CHUNK));
    measure = { rows: parser.info.records - 1 };
  } else {
    if (subject === 'countCsvRows + scrubCsv')
      await countCsvRows(createReadStream(path, CHUNK), { phoneColumn: 'phone' });
    const scrub = flag('--in-thread')
      ? scrubCsvInThread
      : subject === PARALLEL
        ? scrubCsvInParallel
        : scrubCsv;
    const result = await scrub(createReadStream(path, CHUNK), createWriteStream(outPath, CHUNK), {
      phoneColumn: 'phone',
      ...options,
      threads: subject === PARALLEL ? THREADS : 1,
    });
    measure = {
      rows: result.rows,
      uniqueNumbers: result.uniqueNumbers,
      dnc: result.dncStatus.dnc,
      // The reasons in a fixed order: a threaded scrub meets them in another order (the same counts).
      result: JSON.stringify(result, (key, value) =>
        key === 'invalidReasons' ? Object.fromEntries(Object.entries(value).sort()) : value,
      ),
    };
  }
  return measure;
}

async function hashOf(path: string): Promise<{ sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { sha256: hash.digest('hex') };
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

async function main(): Promise<void> {
  const crm = flag('--crm');
  const subjects = flag('--scrubs') ? SCRUBS : SUBJECTS;
  const given = FLAGS.filter(flag);
  const [rowsArgument, roundsArgument] = process.argv
    .slice(2)
    .filter((arg) => !FLAGS.some((name) => name === arg));
  const rows = Number(rowsArgument ?? 1_000_000);
  const rounds = Number(roundsArgument ?? 3);
  const dir = await mkdtemp(join(tmpdir(), 'scrub-csv-bench-'));
  try {
    const path = join(dir, 'leads.csv');
    let began = process.hrtime.bigint();
    const lines = crm ? crmLeadLines : leadLines;
    await writeLines(path, lines(rows, { random: mulberry32(0xc5f11e), areaCodes: US_AREA_CODES, pool }));
    const { size } = await stat(path);
    out(
      `Node ${process.version}; ${rows.toLocaleString('en-US')} rows${crm ? ' (CRM export)' : ''}; ${given.join(' ') || 'no flags'}; ${mb(size)}, generated in ${(Number(process.hrtime.bigint() - began) / 1e9).toFixed(1)} s; ${THREADS} cores, load average ${load()}`,
    );
    const best = new Map<Subject, Measure>();
    const outputs = new Map<Subject, { sha256: string; result: string }>();
    for (let round = 0; round < rounds; round++) {
      const times = new Map<Subject, number>();
      const loadBefore = load();
      for (const subject of subjects) {
        began = process.hrtime.bigint();
        const child = spawnSync(
          process.execPath,
          [fileURLToPath(import.meta.url), '--subject', subject, path, join(dir, 'out.csv'), ...given],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        );
        if (child.status !== 0) throw new Error(`${subject} failed: ${child.stderr}`);
        const measure = JSON.parse(child.stdout) as Measure;
        times.set(subject, measure.seconds);
        if (SCRUBS.includes(subject))
          outputs.set(subject, { ...(await hashOf(join(dir, 'out.csv'))), result: measure.result! });
        const previous = best.get(subject);
        if (!previous || measure.seconds < previous.seconds) best.set(subject, measure);
      }
      const one = times.get('scrubCsv')!;
      const two = times.get(PARALLEL)!;
      out(
        `round ${round + 1}, load average ${loadBefore} -> ${load()}: scrubCsv ${one.toFixed(2)} s, ${PARALLEL} ${two.toFixed(2)} s: ${(one / two).toFixed(2)}x`,
      );
    }
    const baseline = best.get('csv-parse -> csv-stringify');
    out();
    out(`Load average at the end: ${load()} (other work on the machine slows the threaded subject most)`);
    out(
      '| subject | time | CPU | CPU by thread | rows/s | MB/s | share of the bare pass | peak RSS (at start) |',
    );
    out('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const subject of subjects) {
      const m = best.get(subject)!;
      const byThread = Object.entries(m.threads)
        .map(([name, seconds]) => `${name} ${seconds.toFixed(2)}`)
        .join(', ');
      const share = baseline ? `${(m.seconds / baseline.seconds).toFixed(2)}x` : '-';
      out(
        `| ${subject} | ${m.seconds.toFixed(2)} s | ${m.cpuSeconds.toFixed(2)} s | ${byThread} | ${(m.rows / m.seconds / 1e6).toFixed(2)} M | ${(size / 2 ** 20 / m.seconds).toFixed(0)} | ${share} | ${mb(m.peakRss)} (${mb(m.startRss)}) |`,
      );
    }
    const scrub = best.get('scrubCsv')!;
    out();
    if (baseline) {
      out(
        `scrubCsv: ${scrub.rows.toLocaleString('en-US')} rows, ${scrub.uniqueNumbers?.toLocaleString('en-US')} unique numbers, ${scrub.dnc?.toLocaleString('en-US')} on the list; ` +
          `${(baseline.seconds / scrub.seconds).toFixed(1)} times as fast as the bare pass (target: at least 2)`,
      );
    }
    const parallel = best.get(PARALLEL)!;
    const same = JSON.stringify(outputs.get('scrubCsv')) === JSON.stringify(outputs.get(PARALLEL));
    out(
      `${PARALLEL}: ${(scrub.seconds / parallel.seconds).toFixed(2)} times the throughput of scrubCsv (target: at least 1.6 on 2 cores), ` +
        `${(parallel.cpuSeconds / scrub.cpuSeconds).toFixed(2)} times its CPU time; ` +
        `peak RSS ${mb(parallel.peakRss)} against ${mb(scrub.peakRss)}; result file and counts ${same ? 'identical' : 'DIFFERENT'}`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--subject') {
  const [, , , subject, path, outPath] = process.argv;
  process.stdout.write(JSON.stringify(await runSubject(subject as Subject, path!, outPath!, flag('--warm'))));
} else {
  await main();
}
