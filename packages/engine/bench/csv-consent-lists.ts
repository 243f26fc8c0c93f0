// What a consent-date column and two operator lists cost a bulk scrub: the same file scrubbed
// plain and with them, in one run.
//
//   pnpm --filter @scrub/engine bench:consent-lists
//   node bench/csv-consent-lists.ts [rows] [rounds]    (default 1,000,000 rows, 3 rounds)
//
// Target (issue 25, done when): a 1M-row job with a consent column and two extra lists stays
// within 1.3x of the same job without them.
//
// The file is bench/csv.ts's lead file (@scrub/test-fixtures' `leadLines`, the same seed and a
// 2 M-number federal list) with a last column, `consent_date`, spread over 2023-2025. Both subjects
// get the sample exchange table and the federal list; "with" adds `reassigned: { consentColumn,
// disconnects }` (a DisconnectList of ~1% of the file's distinct numbers, disconnected on a day in
// 2023-2025, the list speaking for 2023-01-01 to 2025-12-31) and `lists` (two operator lists,
// `list:litigators` ~2% and `list:vendor` ~0.5% of the numbers). Each subject runs in its own
// process, file to file on disk, alternating, `rounds` times each: best and median reported, each
// round's pair as a ratio (least and median), and the "with" result checked for its three added
// columns and their answers.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compactPool, leadLines, mulberry32, usAreaCodes, writeLines } from '@scrub/test-fixtures';
import {
  CONSENT_FROM,
  CONSENT_TO,
  type ExtraChecks,
  extraChecksOf,
  withConsentDates,
} from '@scrub/test-fixtures/extra-checks';
import { areaCodeInfo } from '../src/area-codes.ts';
import { scrubCsv } from '../src/csv/scrub-csv.ts';
import type { ScrubCsvOptions } from '../src/csv/scrub-options.ts';
import { DncListBuilder } from '../src/dnc/builder.ts';
import { DncSet } from '../src/dnc/set.ts';
import { sampleExchangeTable } from '../src/exchange/sample.ts';
import { DisconnectList, dayOf } from '../src/reassigned/disconnect-list.ts';

const SUBJECTS = ['plain', 'consent column + 2 lists'] as const;
type Subject = (typeof SUBJECTS)[number];

const POOL = 2_000_000;
const US_AREA_CODES = usAreaCodes(areaCodeInfo);
const pool = compactPool(POOL, US_AREA_CODES, 16_384);
const CHUNK = { highWaterMark: 1 << 20 };

/** The list columns come last in the set's order, then Reassigned (`result-cells.ts`, `reassigned-cells.ts`). */
const ADDED_COLUMNS = ['List: litigators', 'List: vendor', 'Reassigned'];

interface Measure {
  seconds: number;
  cpuSeconds: number;
  peakRss: number;
  rows: number;
  /** "with" only: the result's header ends with the added columns, and their answers' counts. */
  added?: { header: string; reassigned: Record<string, number>; litigators: number; vendor: number };
}

/** The lead file with a consent date at the end of each row; answers its distinct numbers. */
async function writeLeadFile(path: string, rows: number): Promise<Set<number>> {
  const numbers = new Set<number>();
  const lines = leadLines(rows, {
    random: mulberry32(0xc5f11e),
    areaCodes: US_AREA_CODES,
    pool,
    onNumber: (number) => {
      if (number !== null) numbers.add(number);
    },
  });
  await writeLines(path, withConsentDates(lines, mulberry32(0xc0115e)));
  return numbers;
}

function listOf(name: string, numbers: Iterable<number>) {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build('bench');
}

/** The "with" result's added cells, counted from its bytes (outside the timing). */
async function addedCells(outPath: string): Promise<NonNullable<Measure['added']>> {
  const lines = (await readFile(outPath, 'latin1')).split('\r\n');
  const header = lines[0]!;
  const reassigned: Record<string, number> = { '0': 0, '1': 0, '': 0 };
  let litigators = 0;
  let vendor = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const last = line.lastIndexOf(',');
    const middle = line.lastIndexOf(',', last - 1);
    const first = line.lastIndexOf(',', middle - 1);
    if (line.slice(first + 1, middle) === '1') litigators++;
    if (line.slice(middle + 1, last) === '1') vendor++;
    const cell = line.slice(last + 1);
    reassigned[cell] = (reassigned[cell] ?? 0) + 1;
  }
  return { header, reassigned, litigators, vendor };
}

/** One subject, in this process: what the parent spawns. */
async function runSubject(
  subject: Subject,
  path: string,
  outPath: string,
  listsPath: string,
): Promise<Measure> {
  const federal = new DncListBuilder('federal');
  for (let i = 0; i < POOL; i++) federal.add(pool.number(i));
  const options: ScrubCsvOptions = {
    phoneColumn: 'phone',
    exchange: sampleExchangeTable(),
    dnc: new DncSet([federal.build('bench')]),
  };
  if (subject !== 'plain') {
    const extra = JSON.parse(await readFile(listsPath, 'utf8')) as ExtraChecks;
    const disconnects = extra.disconnects.map(([number, day]): [number, number] => [number, dayOf(day)]);
    options.reassigned = {
      consentColumn: 'consent_date',
      disconnects: DisconnectList.build(disconnects, {
        version: 'bench',
        from: CONSENT_FROM,
        asOf: CONSENT_TO,
      }),
    };
    options.lists = new DncSet([
      listOf('list:litigators', extra.litigators),
      listOf('list:vendor', extra.vendor),
    ]);
  }
  const cpu = process.cpuUsage();
  const began = process.hrtime.bigint();
  const result = await scrubCsv(createReadStream(path, CHUNK), createWriteStream(outPath, CHUNK), options);
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const used = process.cpuUsage(cpu);
  const measure: Measure = {
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rows: result.rows,
  };
  if (subject !== 'plain') measure.added = await addedCells(outPath);
  return measure;
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const rounds = Number(process.argv[3] ?? 3);
  const dir = await mkdtemp(join(tmpdir(), 'scrub-consent-lists-bench-'));
  try {
    const path = join(dir, 'leads.csv');
    const listsPath = join(dir, 'lists.json');
    const began = process.hrtime.bigint();
    const numbers = await writeLeadFile(path, rows);
    const extra = extraChecksOf(numbers, mulberry32(0x11575));
    await writeFile(listsPath, JSON.stringify(extra));
    const { size } = await stat(path);
    out(
      `Node ${process.version}; ${rows.toLocaleString('en-US')} rows with a consent date, ${mb(size)}, ${numbers.size.toLocaleString('en-US')} distinct numbers, generated in ${(Number(process.hrtime.bigint() - began) / 1e9).toFixed(1)} s; load average ${load()}`,
    );
    out(
      `Disconnections: ${extra.disconnects.length.toLocaleString('en-US')}; list:litigators ${extra.litigators.length.toLocaleString('en-US')}; list:vendor ${extra.vendor.length.toLocaleString('en-US')}`,
    );
    const measures = new Map<Subject, Measure[]>(SUBJECTS.map((subject) => [subject, []]));
    for (let round = 0; round < rounds; round++) {
      for (const subject of round % 2 === 0 ? SUBJECTS : [...SUBJECTS].reverse()) {
        const child = spawnSync(
          process.execPath,
          [fileURLToPath(import.meta.url), '--subject', subject, path, join(dir, 'out.csv'), listsPath],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        );
        if (child.status !== 0) throw new Error(`${subject} failed: ${child.stderr}`);
        measures.get(subject)!.push(JSON.parse(child.stdout) as Measure);
      }
    }
    out();
    out(`Load average at the end: ${load()}`);
    out('| subject | best | median | CPU (best) | rows/s (best) | peak RSS |');
    out('| --- | --- | --- | --- | --- | --- |');
    for (const subject of SUBJECTS) {
      const all = measures.get(subject)!;
      const best = all.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      out(
        `| ${subject} | ${best.seconds.toFixed(2)} s | ${median(all.map((m) => m.seconds)).toFixed(2)} s | ${best.cpuSeconds.toFixed(2)} s | ${(best.rows / best.seconds / 1e6).toFixed(2)} M | ${mb(Math.max(...all.map((m) => m.peakRss)))} |`,
      );
    }
    const times = (subject: Subject) => measures.get(subject)!.map((m) => m.seconds);
    const plain = times('plain');
    const checked = times('consent column + 2 lists');
    const bestRatio = Math.min(...checked) / Math.min(...plain);
    const medianRatio = median(checked) / median(plain);
    // Each round's pair (the two subjects one after the other), as a ratio: on a shared machine the
    // load moves between rounds more than between the two runs of one round.
    const pairs = (of: (m: Measure) => number) => {
      const withs = measures.get('consent column + 2 lists')!;
      return measures.get('plain')!.map((m, round) => of(withs[round]!) / of(m));
    };
    const pairLine = (ratios: number[]) =>
      `${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}: least ${Math.min(...ratios).toFixed(2)}x, median ${median(ratios).toFixed(2)}x`;
    const added = measures.get('consent column + 2 lists')!.at(-1)!.added!;
    const cpu = (subject: Subject) => Math.min(...measures.get(subject)!.map((m) => m.cpuSeconds));
    const cpuRatio = cpu('consent column + 2 lists') / cpu('plain');
    out();
    out(
      `With the consent column and 2 lists: ${bestRatio.toFixed(2)}x the plain scrub (best), ${medianRatio.toFixed(2)}x (median); target: at most 1.3x. CPU time (least of each): ${cpuRatio.toFixed(2)}x`,
    );
    out(`Each round's pair, with / plain: wall ${pairLine(pairs((m) => m.seconds))}`);
    out(`Each round's pair, with / plain: CPU ${pairLine(pairs((m) => m.cpuSeconds))}`);
    const present = added.header.endsWith(`,${ADDED_COLUMNS.join(',')}`);
    out(`Result header: ${added.header}`);
    out(
      `Added columns ${present ? 'present' : 'MISSING'} (${ADDED_COLUMNS.join(', ')}); Reassigned 1: ${added.reassigned['1']}, 0: ${added.reassigned['0']}, empty: ${added.reassigned['']}; on list:litigators ${added.litigators}, on list:vendor ${added.vendor}`,
    );
    if (!present || added.reassigned['1'] === 0 || added.litigators === 0 || added.vendor === 0)
      process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--subject') {
  const [, , , subject, path, outPath, listsPath] = process.argv;
  process.stdout.write(JSON.stringify(await runSubject(subject as Subject, path!, outPath!, listsPath!)));
} else {
  await main();
}
