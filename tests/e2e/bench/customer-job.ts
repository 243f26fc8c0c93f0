// A customer's whole bulk job as the CLI runs it, beside a bare csv-parse -> csv-stringify pass
// over the same file, in one run (issue 16, goals 1 and 2).
//
//   pnpm --filter @scrub/e2e bench             (after `pnpm build`; 200,000 rows)
//   node bench/customer-job.ts [--rows 1000000] [--rounds 3]
//   DATABASE_URL=postgres://... node bench/customer-job.ts --rows 10000000 --rounds 1
//
// Target (goal 1): the whole job, from the CLI's start to the last byte of the result on disk, at
// most 0.35x of the bare pass at 1 M and 10 M rows, on the embedded default and on PostgreSQL.
// Goal 2: the first result row of `cat FILE | scrub bulk - --wait` under 1 s, whatever the size.
//
// Every subject is a process of its own, timed from its start to its exit, best of `rounds`:
//   bare      the bare pass, file to file, 1 MiB chunks
//   queued    scrub bulk FILE --wait -o out.csv, made to take the queued way (create, upload,
//             submit, wait, download) with a --map option, which the streaming route does not take
//   file      scrub bulk FILE --wait -o out.csv: streamed since issue 16 (POST /bulk/jobs/stream)
//   pipe      sh -c 'cat FILE | scrub bulk - --wait > out.csv', streamed; its stdout passes
//             through this process, which notes when the first bytes come
// The server is `scrub-server`'s startServer in a child process: PGlite in memory, or with
// DATABASE_URL that PostgreSQL (API and worker in one process), files in a temporary data
// directory holding a 2 M-number federal do-not-call list. A 20,000-row job runs first.
// The results of the three jobs are compared byte for byte.
//
// Profiling (opt-in): SCRUB_BENCH_PROFILE=DIR writes CPU profiles (`--cpu-prof`, one file per
// thread) of the server to DIR/server and of each `scrub` process to DIR/<subject>, and each scrub
// process's phases (requests sent, first and last bytes of the answers, exit; bench/phases.ts) to
// DIR/phases.txt. `--subjects file,pipe` runs only those subjects (the bare pass always runs).
//
// The file is a CRM export (@scrub/test-fixtures' crmLeadLines): CRLF, 5% of the notes quoted
// over several lines, phones spelled `+1 201 555 0123`, `(201)555-0123 x12`, `2015550123.0`,
// `201.555.0123`, 3% repeats, 3% junk, 12% on the do-not-call list.
//
// `--checks` (issue 25: a job with a consent column and two extra lists within 1.3x of the same
// job without them): the file gets a last column, `consent_date` (2023-2025), the server imports
// disconnections of ~1% of the file's numbers and two operator lists (`litigators` ~2%, `vendor`
// ~0.5%), and one more subject runs after the others:
//   checks    scrub bulk FILE --consent-col consent_date --lists litigators,vendor --wait -o out.csv
// compared with `file` (the same file and command without them); its result is checked for the
// three added columns rather than compared byte for byte.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { areaCodeInfo } from '@scrub/engine';
import {
  crmLeadLines,
  federalListLines,
  mulberry32,
  spreadPool,
  usAreaCodes,
  writeLines,
} from '@scrub/test-fixtures';
import {
  CONSENT_FROM,
  CONSENT_TO,
  type ExtraChecks,
  extraChecksOf,
  withConsentDates,
} from '@scrub/test-fixtures/extra-checks';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

const POOL = 2_000_000;
const AREA_CODES = usAreaCodes(areaCodeInfo);
const pool = spreadPool(POOL, AREA_CODES);
const leads = { random: mulberry32(0x16c1), areaCodes: AREA_CODES, pool };
const CHUNK = { highWaterMark: 1 << 20 };
const WARM_UP_ROWS = 20_000;
const since = (start: number) => (performance.now() - start) / 1000;
const SUBJECTS = ['queued', 'file', 'pipe'] as const;
type Subject = (typeof SUBJECTS)[number] | 'checks';
const CHECKS_COLUMNS = ',List: litigators,List: vendor,Reassigned';

/** Node's flags for a process of the run (`name`: server or a subject): CPU profiles when asked for. */
function profiled(name: string): string[] {
  const dir = process.env.SCRUB_BENCH_PROFILE;
  if (!dir) return [];
  const phases = name === 'server' ? [] : ['--import', fileURLToPath(new URL('phases.ts', import.meta.url))];
  return ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`, ...phases];
}

/** A built package's binary, as its package.json names it. */
function binOf(name: string, command: string): string {
  const dir = fileURLToPath(new URL(`../node_modules/${name}/`, import.meta.url));
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  return join(dir, bin[command]!);
}

/** Imports the extra checks' disconnections and operator lists into the data directory (`--checks`). */
function importExtraChecks(serverBin: string, dir: string, dataDir: string, checks: ExtraChecks): void {
  const files = {
    disconnects: checks.disconnects.map(([number, day]) => `${number},${day}`),
    litigators: checks.litigators.map(String),
    vendor: checks.vendor.map(String),
  };
  for (const [name, lines] of Object.entries(files)) {
    const path = join(dir, `${name}.csv`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const args =
      name === 'disconnects'
        ? ['disconnects', path, '--as-of', CONSENT_TO, '--from', CONSENT_FROM]
        : ['list', path, '--name', name, '--no-header'];
    const imported = spawnSync(process.execPath, [serverBin, 'data', 'import', ...args], {
      env: { PATH: process.env.PATH, SCRUB_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    if (imported.status !== 0) throw new Error(`scrub-server data import ${name} failed: ${imported.stderr}`);
  }
}

/** The bare pass, in its own process (`--bare`). */
async function bare(path: string, outPath: string): Promise<void> {
  await pipeline(createReadStream(path, CHUNK), parse(), stringify(), createWriteStream(outPath, CHUNK));
}

/** The service in its own process (`--server`): says where it listens and with which key, then waits. */
async function serve(dataDir: string, credits: number): Promise<void> {
  const { applyLedgerEntry, ensureProfile, loadConfig, rotateApiKey, startServer } = await import(
    '@scrub/server'
  );
  const url = process.env.DATABASE_URL;
  const config = loadConfig(
    { SCRUB_LOG_LEVEL: 'silent', SCRUB_DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) },
    { host: '127.0.0.1', port: 0, ...(url ? {} : { database: { kind: 'pglite', dataDir: null } }) },
  );
  const server = await startServer(config, false);
  const db = server.database.db;
  const profile = await ensureProfile(db, {
    sub: `bench-cli-${Date.now()}`,
    email: `bench-cli-${Date.now()}@example.com`,
    name: 'Bench',
    role: 'User',
  });
  await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
  const { api_key: apiKey } = await rotateApiKey(db, profile.id);
  process.stdout.write(`${JSON.stringify({ url: server.url, apiKey })}\n`);
  for await (const _ of createInterface({ input: process.stdin }));
  await server.close();
}

interface Run {
  seconds: number;
  /** The pipe only: seconds from its start to the first bytes of the result. */
  firstBytes?: number;
}

/** Runs `command` (argv, or a shell line), timed from its start to its exit; stdout to `outPath` when given. */
function timed(command: string[] | string, env: NodeJS.ProcessEnv, outPath?: string): Promise<Run> {
  const began = performance.now();
  const child =
    typeof command === 'string'
      ? spawn('sh', ['-c', command], { env, stdio: ['ignore', outPath ? 'pipe' : 'ignore', 'pipe'] })
      : spawn(process.execPath, command, { env, stdio: ['ignore', outPath ? 'pipe' : 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  let firstBytes: number | undefined;
  const written = outPath
    ? pipeline(
        child.stdout!.on('data', () => (firstBytes ??= since(began))),
        createWriteStream(outPath, CHUNK),
      )
    : Promise.resolve();
  return new Promise((resolve, reject) => {
    child.on('exit', async (code) => {
      await written;
      if (code !== 0) reject(new Error(`${JSON.stringify(command)} exited ${code}: ${stderr}`));
      else resolve({ seconds: since(began), ...(firstBytes === undefined ? {} : { firstBytes }) });
    });
  });
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const sec = (seconds: number) => `${seconds.toFixed(2)} s`;
const count = (n: number) => n.toLocaleString('en-US');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '200000' },
      rounds: { type: 'string', default: '3' },
      subjects: { type: 'string', default: SUBJECTS.join(',') },
      checks: { type: 'boolean', default: false },
    },
  });
  const rows = Number(values.rows);
  const rounds = Number(values.rounds);
  if (!Number.isSafeInteger(rows) || rows < 1 || !Number.isSafeInteger(rounds) || rounds < 1) {
    throw new Error('--rows and --rounds take whole numbers, at least 1');
  }
  const subjects = values.subjects.split(',') as Subject[];
  if (
    subjects.length === 0 ||
    subjects.some((subject) => !(SUBJECTS as readonly string[]).includes(subject))
  ) {
    throw new Error(`--subjects takes a list of ${SUBJECTS.join(', ')}, separated by commas`);
  }
  const timedSubjects: Subject[] = values.checks ? [...subjects, 'checks'] : subjects;
  const profileDir = process.env.SCRUB_BENCH_PROFILE;
  if (profileDir) {
    // Made now: the first scrub process to exit writes its phases before any profile is written.
    mkdirSync(profileDir, { recursive: true });
    process.env.SCRUB_BENCH_PHASES = join(profileDir, 'phases.txt');
  }
  const scrubBin = binOf('@scrub/cli', 'scrub');
  const serverBin = binOf('@scrub/server', 'scrub-server');
  const dir = await mkdtemp(join(tmpdir(), 'scrub-cli-bench-'));
  const server = { stop: async () => {} };
  try {
    const path = join(dir, 'leads.csv');
    const warmUp = join(dir, 'warm-up.csv');
    const dataDir = join(dir, 'data');
    let began = performance.now();
    const numbers = new Set<number>();
    const lines = crmLeadLines(rows, {
      ...leads,
      onNumber: (number) => {
        if (number !== null) numbers.add(number);
      },
    });
    await writeLines(path, values.checks ? withConsentDates(lines, mulberry32(0xc0115e)) : lines);
    await writeLines(warmUp, crmLeadLines(WARM_UP_ROWS, leads));
    const { size } = await stat(path);
    const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in memory';
    out(
      `Node ${process.version}; ${count(rows)} rows, ${mb(size)}, generated in ${sec(since(began))}; database: ${database}`,
    );
    began = performance.now();
    const listPath = join(dir, 'federal.txt');
    await writeLines(listPath, federalListLines(pool));
    const imported = spawnSync(
      process.execPath,
      [serverBin, 'data', 'import', 'ftc', listPath, '--released', new Date().toISOString().slice(0, 10)],
      {
        env: { PATH: process.env.PATH, SCRUB_DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    );
    if (imported.status !== 0) throw new Error(`scrub-server data import ftc failed: ${imported.stderr}`);
    await rm(listPath);
    out(`federal do-not-call list of ${count(POOL)} numbers imported in ${sec(since(began))}`);
    if (values.checks) {
      const checks = extraChecksOf(numbers, mulberry32(0x11575));
      importExtraChecks(serverBin, dir, dataDir, checks);
      out(
        `with --checks: a consent date on every row; ${count(checks.disconnects.length)} disconnections, list:litigators ${count(checks.litigators.length)}, list:vendor ${count(checks.vendor.length)} imported`,
      );
    }

    const child = spawn(
      process.execPath,
      [
        ...profiled('server'),
        fileURLToPath(import.meta.url),
        '--server',
        dataDir,
        String((rows + WARM_UP_ROWS) * (5 * rounds + 1)),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    server.stop = async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    };
    const ready = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    const { url, apiKey } = JSON.parse(ready.value as string) as { url: string; apiKey: string };
    const env = {
      PATH: process.env.PATH,
      SCRUB_API_URL: url,
      SCRUB_API_KEY: apiKey,
      SCRUB_CONFIG_DIR: join(dir, 'config'),
      ...(profileDir ? { SCRUB_BENCH_PHASES: process.env.SCRUB_BENCH_PHASES } : {}),
    };
    const scrub = (file: string, output: string, ...more: string[]) => [
      scrubBin,
      'bulk',
      file,
      '--phone-col',
      'phone',
      '--wait',
      '-o',
      output,
      ...more,
    ];
    await timed(scrub(warmUp, join(dir, 'warm-up-out.csv')), env);

    const outputs: Record<Subject, string> = {
      queued: join(dir, 'queued.csv'),
      file: join(dir, 'file.csv'),
      pipe: join(dir, 'pipe.csv'),
      checks: join(dir, 'checks.csv'),
    };
    const flags = (subject: Subject) =>
      profiled(subject)
        .map((flag) => `'${flag}'`)
        .join(' ');
    const runs: Record<Subject, () => Promise<Run>> = {
      queued: () =>
        timed([...profiled('queued'), ...scrub(path, outputs.queued, '--map', 'full_name=name')], env),
      file: () => timed([...profiled('file'), ...scrub(path, outputs.file)], env),
      pipe: () =>
        timed(
          `cat '${path}' | '${process.execPath}' ${flags('pipe')} '${scrubBin}' bulk - --phone-col phone --wait`,
          env,
          outputs.pipe,
        ),
      checks: () =>
        timed(
          [
            ...profiled('checks'),
            ...scrub(path, outputs.checks, '--consent-col', 'consent_date', '--lists', 'litigators,vendor'),
          ],
          env,
        ),
    };
    const best: Partial<Record<'bare' | Subject, Run>> = {};
    const keep = (name: keyof typeof best, run: Run) => {
      const current = best[name];
      if (!current || run.seconds < current.seconds) best[name] = run;
      return run;
    };
    const said: Record<'bare' | Subject, string> = {
      bare: 'bare',
      queued: 'queued',
      file: 'file streamed',
      pipe: 'pipe',
      checks: 'file streamed with the checks',
    };
    for (let round = 0; round < rounds; round++) {
      const bareRun = keep(
        'bare',
        await timed([fileURLToPath(import.meta.url), '--bare', path, join(dir, 'bare.csv')], env),
      );
      const line = [`bare ${sec(bareRun.seconds)}`];
      for (const subject of timedSubjects) {
        const run = keep(subject, await runs[subject]());
        const firstBytes = run.firstBytes === undefined ? '' : ` (first bytes after ${sec(run.firstBytes)})`;
        line.push(`${said[subject]} ${sec(run.seconds)}${firstBytes}`);
      }
      out(`round ${round + 1}: ${line.join('; ')}`);
    }
    const results = subjects.map((subject) => readFileSync(outputs[subject]));
    const same = results.every((result) => result.equals(results[0]!));
    const baseline = best.bare!.seconds;
    out();
    out(`| subject | time | share of the bare pass | first result bytes |`);
    out(`| --- | --- | --- | --- |`);
    const row = (subject: string, run: Run | undefined) =>
      run &&
      out(
        `| ${subject} | ${sec(run.seconds)} | **${(run.seconds / baseline).toFixed(2)}x** | ${run.firstBytes === undefined ? '' : sec(run.firstBytes)} |`,
      );
    row('csv-parse -> csv-stringify', best.bare);
    row('`scrub bulk FILE --wait -o out.csv`, queued (`--map`)', best.queued);
    row('`scrub bulk FILE --wait -o out.csv`, streamed', best.file);
    row('`cat FILE | scrub bulk - --wait > out.csv`, streamed', best.pipe);
    row(
      '`scrub bulk FILE --consent-col consent_date --lists litigators,vendor --wait -o out.csv`',
      best.checks,
    );
    out();
    const streamed = [best.file, best.pipe].filter((run) => run !== undefined).map((run) => run.seconds);
    const target = Math.min(...streamed) / baseline;
    const verdict =
      streamed.length === 0 ? 'no streamed subject run' : `${target <= 0.35 ? 'met' : 'NOT MET'}`;
    out(
      `results ${same ? 'identical' : 'DIFFER'} (${mb(results[0]!.length)}); best streamed ${target.toFixed(2)}x the bare pass (target at most 0.35x): ${verdict}; ` +
        (best.pipe?.firstBytes !== undefined
          ? `first bytes of the pipe after ${sec(best.pipe.firstBytes)} (target under 1 s)`
          : 'the pipe not run (--subjects)'),
    );
    if (!same) process.exitCode = 1;
    if (values.checks) {
      const header = readFileSync(outputs.checks, 'latin1').slice(0, 200).split('\r\n')[0]!;
      const added = header.endsWith(CHECKS_COLUMNS);
      const ratio = best.file
        ? (best.checks!.seconds / best.file.seconds).toFixed(2)
        : 'not measured (no file subject)';
      out(
        `with the consent column and 2 lists: ${ratio}x the same job without them (target at most 1.3x); added columns ${added ? 'present' : 'MISSING'}: ${header}`,
      );
      if (!added) process.exitCode = 1;
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const [mode, first, second] = process.argv.slice(2);
if (mode === '--bare') await bare(first!, second!);
else if (mode === '--server') await serve(first!, Number(second));
else await main();
