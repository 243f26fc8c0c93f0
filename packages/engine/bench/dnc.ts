// Do-not-call lists: memory per registered number, import speed from the FTC's full-list format,
// and classify-plus-DNC lookups beside a plain JavaScript Set of the same numbers, in one run.
//
//   pnpm --filter @scrub/engine bench            (both benchmarks)
//   node bench/dnc.ts [registered] [queries]     (default 20,000,000 and 10,000,000)
//
// Targets: at most 2 bytes per registered number at 20 M; at least 2 M numbers/s imported; at
// least 10 M classify-plus-DNC lookups/s on one core, and at least as fast as the Set.
//
// The registry model (synthetic: real registry data is never used here). The real registry holds
// about 250 M numbers. They sit in in-service US area codes, weighted log-normally (sigma 0.7) as
// population concentrates; in each area code 45-95% of the 790 usable exchanges (NXX 200-999 but
// N11, 555 and 950) are in service; each exchange's share of numbers is log-normal again
// (sigma 1.0), capped at 90% of its 10,000 lines. At 250 M that fills the average exchange to about
// 13%, with many far below and some near full; at 20 M every exchange holds 8% of that.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCHANGES, mulberry32, TOLL_FREE } from '@scrub/test-fixtures';
import { zipOf } from '@scrub/test-fixtures/dnc';
import { areaCodeInfo } from '../src/area-codes.ts';
import { classifyCode } from '../src/classify.ts';
import { DncListBuilder } from '../src/dnc/builder.ts';
import { importFtcFullList } from '../src/dnc/ftc-full-list.ts';
import type { DncList } from '../src/dnc/list.ts';
import { DncSet } from '../src/dnc/set.ts';

const REGISTERED = Number(process.argv[2] ?? 20_000_000);
const QUERIES = Number(process.argv[3] ?? 10_000_000);
const NATIONAL = 250_000_000;
const ROUNDS = 3;
const MAX_FILL = 9_000;

const out = (line = '') => process.stdout.write(`${line}\n`);
const millions = (n: number, digits = 1) => (n / 1e6).toFixed(digits);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

// Deterministic, so runs compare.
const random = mulberry32(0xd0c411);
function logNormal(sigma: number): number {
  const u = 1 - random();
  const v = random();
  return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}

const US_AREA_CODES = Array.from({ length: 800 }, (_, i) => areaCodeInfo(200 + i)).filter(
  (info) => info.status === 'geographic' && info.inService && info.country === 'US',
);

// The exchanges in service and each one's share of the registry.
const exchanges: number[] = [];
const shares: number[] = [];
for (const { npa } of US_AREA_CODES) {
  const weight = logNormal(0.7);
  const inService = 0.45 + 0.5 * random();
  for (const nxx of EXCHANGES) {
    if (random() >= inService) continue;
    exchanges.push(npa * 1000 + nxx);
    shares.push(weight * logNormal(1.0));
  }
}
const shareTotal = shares.reduce((sum, share) => sum + share, 0);

/**
 * Lines registered per exchange for a registry of `total` numbers: shares rounded at random, and
 * what the cap cuts from full exchanges spread over the others, so the total holds.
 */
function counts(total: number): Uint16Array {
  const exact = shares.map((share) => (total * share) / shareTotal);
  for (let round = 0; round < 10; round++) {
    let excess = 0;
    let open = 0;
    for (const value of exact) {
      if (value > MAX_FILL) excess += value - MAX_FILL;
      else open += value;
    }
    if (excess < 1) break;
    for (let i = 0; i < exact.length; i++) {
      exact[i] = exact[i]! > MAX_FILL ? MAX_FILL : exact[i]! * (1 + excess / open);
    }
  }
  const result = new Uint16Array(exchanges.length);
  for (let i = 0; i < exchanges.length; i++) {
    const value = Math.min(MAX_FILL, exact[i]!);
    result[i] = Math.floor(value) + (random() < value % 1 ? 1 : 0);
  }
  return result;
}

/** Calls `emit(exchange, line)` for each registered number, exchange by exchange, lines at random. */
function generate(perExchange: Uint16Array, emit: (exchange: number, line: number) => void): void {
  const taken = new Uint32Array(10_000);
  for (let i = 0; i < exchanges.length; i++) {
    const stamp = i + 1;
    for (let left = perExchange[i]!; left > 0; ) {
      const line = Math.floor(random() * 10_000);
      if (taken[line] === stamp) continue;
      taken[line] = stamp;
      emit(exchanges[i]!, line);
      left--;
    }
  }
}

function describe(list: DncList): string {
  const stats = list.stats();
  return (
    `${stats.exchanges.toLocaleString('en-US')} exchanges (${stats.sparse.toLocaleString('en-US')} sparse, ` +
    `${stats.bitmap.toLocaleString('en-US')} bitmap); ` +
    `index ${mb(stats.indexBytes)}, data ${mb(stats.dataBytes)}`
  );
}

out(
  `Node ${process.version}; ${US_AREA_CODES.length} US area codes, ${exchanges.length.toLocaleString('en-US')} exchanges in service in the model`,
);

// (a) Memory at 20 M, numbers added in random order.
out();
out(`(a) Memory: ${millions(REGISTERED, 0)} M registered numbers`);
const perExchange = counts(REGISTERED);
let registeredCount = 0;
for (const count of perExchange) registeredCount += count;
const registered = new Float64Array(registeredCount);
{
  let i = 0;
  generate(perExchange, (exchange, line) => {
    registered[i++] = exchange * 10_000 + line;
  });
}
const shuffled = registered.slice();
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  const swap = shuffled[i]!;
  shuffled[i] = shuffled[j]!;
  shuffled[j] = swap;
}
let start = process.hrtime.bigint();
const builder = new DncListBuilder('federal');
for (let i = 0; i < shuffled.length; i++) builder.add(shuffled[i]!);
const builderBytes = builder.byteLength;
const federal = builder.build('bench');
const buildSeconds = seconds(start);
const perNumber = federal.byteLength / federal.size;
out(
  `    ${federal.size.toLocaleString('en-US')} numbers in ${mb(federal.byteLength)}: ${perNumber.toFixed(3)} bytes per number (target <= 2)`,
);
out(`    ${describe(federal)}`);
out(
  `    built in ${buildSeconds.toFixed(1)} s from shuffled input; the builder held ${mb(builderBytes)} while building`,
);

// The national registry, built exchange by exchange as the FTC file is sorted, without keeping the numbers.
out(`(a) Memory: ${millions(NATIONAL, 0)} M registered numbers, the whole registry`);
start = process.hrtime.bigint();
const nationalBuilder = new DncListBuilder('federal');
generate(counts(NATIONAL), (exchange, line) => nationalBuilder.addLine(exchange, line));
const nationalBuilderBytes = nationalBuilder.byteLength;
const national = nationalBuilder.build('bench-national');
out(
  `    ${national.size.toLocaleString('en-US')} numbers in ${mb(national.byteLength)}: ${(national.byteLength / national.size).toFixed(3)} bytes per number`,
);
out(`    ${describe(national)}`);
out(
  `    built in ${seconds(start).toFixed(1)} s; the builder held ${mb(nationalBuilderBytes)} while building`,
);
const usExchanges = US_AREA_CODES.length * EXCHANGES.length;
const bound =
  Math.min(2 * NATIONAL, 1_250 * usExchanges) + 8_004 + 256 * US_AREA_CODES.length + 4 * usExchanges;
out(
  `    bound for any 250 M numbers in these ${US_AREA_CODES.length} area codes (${usExchanges.toLocaleString('en-US')} usable exchanges): ` +
    `min(2 B x numbers, 1,250 B x exchanges) + 8 KB + 256 B per area code + 4 B per exchange = ${mb(bound)}`,
);

// (b) Import speed from the FTC full-list format: the 20 M numbers above, written as the FTC writes them.
out();
out(`(b) Import: ${millions(registered.length, 0)} M lines of AAA,NNNNNNN`);
const dir = await mkdtemp(join(tmpdir(), 'scrub-dnc-bench-'));
try {
  const text = Buffer.allocUnsafe(registered.length * 12);
  for (let i = 0, at = 0; i < registered.length; i++) {
    const number = registered[i]!;
    const npa = Math.floor(number / 10_000_000);
    let rest = number - npa * 10_000_000;
    text[at] = 48 + Math.floor(npa / 100);
    text[at + 1] = 48 + (Math.floor(npa / 10) % 10);
    text[at + 2] = 48 + (npa % 10);
    text[at + 3] = 44;
    for (let d = 10; d >= 4; d--) {
      text[at + d] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    text[at + 11] = 10;
    at += 12;
  }
  const plainPath = join(dir, 'full-list.txt');
  await writeFile(plainPath, text);
  const zipPath = join(dir, 'full-list.zip');
  // Level 1 keeps the benchmark short; inflating costs about the same at any level.
  await writeFile(zipPath, zipOf([{ name: 'full-list.txt', text, level: 1 }]));
  const textSha = createHash('sha256').update(text).digest('hex');

  for (const [label, path] of [
    ['plain text', plainPath],
    ['zipped', zipPath],
  ] as const) {
    let best = 0;
    let imported: DncList | null = null;
    for (let round = 0; round < 2; round++) {
      const began = process.hrtime.bigint();
      const { list, report } = await importFtcFullList(path);
      const rate = report.rowsUsed / seconds(began);
      if (report.sha256 !== textSha || list.size !== federal.size)
        throw new Error('import read something else');
      best = Math.max(best, rate);
      imported = list;
    }
    out(
      `    ${label.padEnd(10)} ${millions(best, 2).padStart(6)} M numbers/s (target >= 2), ${mb(imported!.byteLength)}`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

// (c) Classify plus DNC beside a Set of the same numbers.
out();
out(`(c) Lookups: classifyCode(n) + dncSet.mask(n) over ${millions(QUERIES, 0)} M numbers`);
// What customers upload: half of it registered numbers, the rest mostly US numbers, some toll
// free, some junk.
const queries = new Float64Array(QUERIES);
for (let i = 0; i < QUERIES; i++) {
  const roll = random();
  if (roll < 0.5) queries[i] = registered[Math.floor(random() * registered.length)]!;
  else if (roll < 0.535) queries[i] = Math.floor(random() * 10_000_000_000);
  else {
    const npa =
      roll < 0.575
        ? TOLL_FREE[Math.floor(random() * TOLL_FREE.length)]!
        : US_AREA_CODES[Math.floor(random() * US_AREA_CODES.length)]!.npa;
    queries[i] =
      npa * 10_000_000 + (200 + Math.floor(random() * 800)) * 10_000 + Math.floor(random() * 10_000);
  }
}
// State lists (a share of the registered numbers in a state's area codes) and one account's list.
function stateList(region: string, share: number): DncList {
  const codes = new Set(US_AREA_CODES.filter((info) => info.region === region).map((info) => info.npa));
  const state = new DncListBuilder(`state:${region}`);
  for (const number of registered)
    if (codes.has(Math.floor(number / 10_000_000)) && random() < share) state.add(number);
  return state.build('bench');
}
const internal = new DncListBuilder('internal:acct_1');
for (let i = 0; i < 10_000; i++) internal.add(queries[Math.floor(random() * QUERIES)]!);
const sets = {
  federal: new DncSet([federal]),
  'federal+3 states+internal': new DncSet([
    federal,
    stateList('TX', 0.3),
    stateList('FL', 0.3),
    stateList('PA', 0.3),
    internal.build('bench'),
  ]),
};
const querySet = new Set<number>(queries);

function best(label: string, run: () => number): number {
  let fastest = 0;
  let checksum = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const began = process.hrtime.bigint();
    checksum = run();
    fastest = Math.max(fastest, QUERIES / seconds(began));
  }
  out(`    ${label.padEnd(50)} ${millions(fastest).padStart(6)} M lookups/s  (checksum ${checksum})`);
  return fastest;
}

const rates: Record<string, number> = {};
const masks = new Uint32Array(QUERIES);
for (const [name, set] of Object.entries(sets)) {
  rates[`${name}, one by one`] = best(`classifyCode + mask, ${name}`, () => {
    let sum = 0;
    for (let i = 0; i < queries.length; i++) {
      const number = queries[i]!;
      sum += classifyCode(number) + (set.mask(number) === 0 ? 0 : 100);
    }
    return sum;
  });
  rates[`${name}, batched`] = best(`classifyCode + maskMany, ${name}`, () => {
    set.maskMany(queries, masks);
    let sum = 0;
    for (let i = 0; i < queries.length; i++) sum += classifyCode(queries[i]!) + (masks[i] === 0 ? 0 : 100);
    return sum;
  });
}
const setRate = best('Set.has (a Set of the same numbers)', () => {
  let hits = 0;
  for (let i = 0; i < queries.length; i++) if (querySet.has(queries[i]!)) hits++;
  return hits;
});
for (const [name, rate] of Object.entries(rates)) {
  out(`    ${name}: ${(rate / setRate).toFixed(2)}x the Set`);
}
out(
  '    targets: >= 10 M lookups/s and >= 1x the Set. A Set could not even hold the registry: V8 caps one at 2^24 (16.7 M) entries',
);
out(`    peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
