// Bulk CSV scrubbing beside a bare csv-parse -> csv-stringify pass over the same file, in one run.
//
//   pnpm --filter @scrub/engine bench:csv
//   node bench/csv.ts [rows] [rounds]        (default 1,000,000 rows, 3 rounds)
//
// Target (issue 5): scrubbing takes at most half the time of the bare pass. Each subject runs in
// its own process, file to file on disk (what the worker does between the upload and the result),
// best of `rounds`, so that each reports its own peak memory.
//
// The file is generated (deterministic): lead columns (first and last name, email, street, city,
// state, zip, phone, date of birth), some streets quoted with a comma, phones in the forms people
// and spreadsheets write (plain, dashed, dotted, bracketed, +1, spreadsheet floats, extensions,
// vanity), 3% repeats, 3% junk, 12% on the do-not-call list.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { areaCodeInfo } from '../src/area-codes.ts';
import { countCsvRows, scrubCsv } from '../src/csv/scrub-csv.ts';
import { DncListBuilder } from '../src/dnc/builder.ts';
import { DncSet } from '../src/dnc/set.ts';
import { sampleExchangeTable } from '../src/exchange/sample.ts';

// The last is what a job does: its records counted when it is submitted, then the scrub.
const SUBJECTS = ['csv-parse -> csv-stringify', 'scrubCsv', 'countCsvRows + scrubCsv'] as const;
type Subject = (typeof SUBJECTS)[number];

interface Measure {
  seconds: number;
  /** Peak resident memory of the process, bytes. */
  peakRss: number;
  /** Resident memory when the subject started (after building its tables), bytes. */
  startRss: number;
  rows: number;
  uniqueNumbers?: number;
  dnc?: number;
}

// The do-not-call list holds POOL numbers; 12% of the file's phones are drawn from them.
const POOL = 2_000_000;

let seed = 0xc5f11e;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const US_AREA_CODES = Array.from({ length: 800 }, (_, i) => areaCodeInfo(200 + i))
  .filter((info) => info.status === 'geographic' && info.inService && info.country === 'US')
  .map((info) => info.npa);
const EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter(
  (nxx) => nxx % 100 !== 11 && nxx !== 555 && nxx !== 950,
);

// murmur3's finaliser, for numbers that are the same in every process.
function mix(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
// The pool sits in 16,384 exchanges: building a list takes working space per exchange touched, and
// the benchmark measures the scrub's memory, not the list builder's.
const POOL_EXCHANGES = Array.from(
  { length: 16_384 },
  (_, i) =>
    US_AREA_CODES[mix(i * 2 + 1) % US_AREA_CODES.length]! * 1000 +
    EXCHANGES[mix(i * 2 + 2) % EXCHANGES.length]!,
);
/** The i-th number of the do-not-call pool. */
function poolNumber(i: number): number {
  const h = mix(i * 2 + 1);
  return POOL_EXCHANGES[h % POOL_EXCHANGES.length]! * 10_000 + (mix(h ^ 0x5bd1e995) % 10_000);
}

function randomNumber(): number {
  if (random() < 0.12) return poolNumber(Math.floor(random() * POOL));
  const npa = random() < 0.03 ? pick([800, 833, 844, 855, 866, 877, 888]) : pick(US_AREA_CODES);
  return npa * 10_000_000 + pick(EXCHANGES) * 10_000 + Math.floor(random() * 10_000);
}

function formatted(number: number): string {
  const d = String(number);
  const [a, b, c] = [d.slice(0, 3), d.slice(3, 6), d.slice(6)];
  const roll = random();
  if (roll < 0.25) return `(${a}) ${b}-${c}`;
  if (roll < 0.45) return `${a}-${b}-${c}`;
  if (roll < 0.6) return d;
  if (roll < 0.68) return `${a}.${b}.${c}`;
  if (roll < 0.76) return `+1 ${a} ${b} ${c}`;
  if (roll < 0.82) return `1-${a}-${b}-${c}`;
  if (roll < 0.88) return `+1${d}`;
  if (roll < 0.93) return `${d}.0`;
  if (roll < 0.97) return `${a}-${b}-${c} x${Math.floor(random() * 900) + 100}`;
  return `"(${a}) ${b}-${c}"`;
}

const FIRST = [
  'James',
  'Mary',
  'John',
  'Linda',
  'Robert',
  'Ana',
  'Michael',
  'Sarah',
  'David',
  'Lisa',
  'Jose',
  'Kim',
];
const LAST = [
  'Smith',
  'Johnson',
  'Garcia',
  'Brown',
  'Lee',
  'Miller',
  'Davis',
  'Nguyen',
  'Lopez',
  'Clark',
  'Young',
];
const STREETS = ['Oak', 'Main', 'Pine', 'Maple', 'Cedar', 'Elm', 'Lake', 'Hill', 'Park', 'Washington'];
const SUFFIXES = ['St', 'Ave', 'Rd', 'Dr', 'Ln'];
const CITIES = ['Austin', 'Denver', 'Miami', 'Newark', 'Tulsa', 'Fresno', 'Boise', 'Reno'];
const STATES = ['TX', 'CO', 'FL', 'NJ', 'OK', 'CA', 'ID', 'NV', 'NY', 'IL'];
const DOMAINS = ['gmail.com', 'yahoo.com', 'aol.com', 'msn.com'];
const JUNK = ['', 'n/a', '555-1234', '2.01555E+09', '+44 20 7946 0958', 'call office', '000-000-0000'];

async function generate(path: string, rows: number): Promise<void> {
  const file = createWriteStream(path);
  const lines: string[] = ['first_name,last_name,email,street,city,state,zip,phone,dob'];
  let previous = 0;
  const flush = async () => {
    if (!file.write(`${lines.join('\r\n')}\r\n`)) await once(file, 'drain');
    lines.length = 0;
  };
  for (let i = 0; i < rows; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const street = `${Math.floor(random() * 9000) + 10} ${pick(STREETS)} ${pick(SUFFIXES)}`;
    const roll = random();
    const number = roll < 0.03 && previous > 0 ? previous : randomNumber();
    previous = number;
    const phone = roll > 0.97 ? pick(JUNK) : formatted(number);
    const year = 1940 + Math.floor(random() * 65);
    const dob = `${year}-${String(Math.floor(random() * 12) + 1).padStart(2, '0')}-${String(Math.floor(random() * 28) + 1).padStart(2, '0')}`;
    lines.push(
      [
        first,
        last,
        `${first[0]!.toLowerCase()}${last.toLowerCase()}${Math.floor(random() * 100)}@${pick(DOMAINS)}`,
        random() < 0.08 ? `"${street}, Apt ${Math.floor(random() * 40) + 1}"` : street,
        pick(CITIES),
        pick(STATES),
        String(Math.floor(random() * 90000) + 10000),
        phone,
        dob,
      ].join(','),
    );
    if (lines.length === 10_000) await flush();
  }
  await flush();
  await new Promise<void>((resolve, reject) =>
    file.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

// Both subjects read and write the file in 1 MiB chunks, as the worker should: 64 KiB reads (the
// default) leave the scrub waiting on the disk for a fifth of its time.
const CHUNK = { highWaterMark: 1 << 20 };

/** One subject, in this process: what the parent spawns. */
async function runSubject(subject: Subject, path: string, outPath: string): Promise<Measure> {
  let options = {};
  if (subject !== 'csv-parse -> csv-stringify') {
    const builder = new DncListBuilder('federal');
    for (let i = 0; i < POOL; i++) builder.add(poolNumber(i));
    options = { exchange: sampleExchangeTable(), dnc: new DncSet([builder.build('bench')]) };
  }
  const startRss = process.memoryUsage.rss();
  const began = process.hrtime.bigint();
  let measure: Omit<Measure, 'seconds' | 'peakRss' | 'startRss'>;
  if (subject === 'csv-parse -> csv-stringify') {
    const parser = parse();
    await pipeline(createReadStream(path, CHUNK), parser, stringify(), createWriteStream(outPath, CHUNK));
    measure = { rows: parser.info.records - 1 };
  } else {
    if (subject === 'countCsvRows + scrubCsv')
      await countCsvRows(createReadStream(path, CHUNK), { phoneColumn: 'phone' });
    const result = await scrubCsv(createReadStream(path, CHUNK), createWriteStream(outPath, CHUNK), {
      phoneColumn: 'phone',
      ...options,
    });
    measure = { rows: result.rows, uniqueNumbers: result.uniqueNumbers, dnc: result.dncStatus.dnc };
  }
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  return { ...measure, seconds, startRss, peakRss: process.resourceUsage().maxRSS * 1024 };
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const rounds = Number(process.argv[3] ?? 3);
  const dir = await mkdtemp(join(tmpdir(), 'scrub-csv-bench-'));
  try {
    const path = join(dir, 'leads.csv');
    let began = process.hrtime.bigint();
    await generate(path, rows);
    const { size } = await stat(path);
    out(
      `Node ${process.version}; ${rows.toLocaleString('en-US')} rows, ${mb(size)}, generated in ${(Number(process.hrtime.bigint() - began) / 1e9).toFixed(1)} s`,
    );
    const best = new Map<Subject, Measure>();
    for (let round = 0; round < rounds; round++) {
      for (const subject of SUBJECTS) {
        began = process.hrtime.bigint();
        const child = spawnSync(
          process.execPath,
          [fileURLToPath(import.meta.url), '--subject', subject, path, join(dir, 'out.csv')],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        );
        if (child.status !== 0) throw new Error(`${subject} failed: ${child.stderr}`);
        const measure = JSON.parse(child.stdout) as Measure;
        const previous = best.get(subject);
        if (!previous || measure.seconds < previous.seconds) best.set(subject, measure);
      }
    }
    const baseline = best.get('csv-parse -> csv-stringify')!;
    out();
    out('| subject | time | rows/s | MB/s | share of the bare pass | peak RSS (at start) |');
    out('| --- | --- | --- | --- | --- | --- |');
    for (const subject of SUBJECTS) {
      const m = best.get(subject)!;
      out(
        `| ${subject} | ${m.seconds.toFixed(2)} s | ${(m.rows / m.seconds / 1e6).toFixed(2)} M | ${(size / 2 ** 20 / m.seconds).toFixed(0)} | ${(m.seconds / baseline.seconds).toFixed(2)}x | ${mb(m.peakRss)} (${mb(m.startRss)}) |`,
      );
    }
    const scrub = best.get('scrubCsv')!;
    out();
    out(
      `scrubCsv: ${scrub.rows.toLocaleString('en-US')} rows, ${scrub.uniqueNumbers?.toLocaleString('en-US')} unique numbers, ${scrub.dnc?.toLocaleString('en-US')} on the list; ` +
        `${(baseline.seconds / scrub.seconds).toFixed(1)} times as fast as the bare pass (target: at least 2)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--subject') {
  const [, , , subject, path, outPath] = process.argv;
  process.stdout.write(JSON.stringify(await runSubject(subject as Subject, path!, outPath!)));
} else {
  await main();
}
