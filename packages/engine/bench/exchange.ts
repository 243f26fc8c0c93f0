// classifyCode with an ExchangeTable attached, beside classifyCode alone and a plain Set.has of
// the same numbers, in the same run; then what tables cost to build and import.
//
//   pnpm --filter @scrub/engine bench:exchange [count]      (default 10,000,000 numbers)
import { Readable } from 'node:stream';
import { mulberry32, picker, TOLL_FREE, usAreaCodes } from '@scrub/test-fixtures';
import { areaCodeInfo } from '../src/area-codes.ts';
import { classifyCode } from '../src/classify.ts';
import { importCoCodeFile } from '../src/exchange/co-code-file.ts';
import { type ExchangeTable, ExchangeTableBuilder } from '../src/exchange/exchange-table.ts';
import { LINE_TYPE_WORDS } from '../src/exchange/line-types.ts';
import { sampleExchangeTable } from '../src/exchange/sample.ts';

const COUNT = Number(process.argv[2] ?? 10_000_000);
const ROUNDS = 3;
const PORTED = 5_000_000;

// Deterministic, so runs compare.
const random = mulberry32(0x5eed);
const pick = picker(random);

const US_AREA_CODES = usAreaCodes(areaCodeInfo);

// What a customer's list looks like: mostly US geographic numbers, some toll free, some junk.
function realisticNumber(): number {
  const roll = random();
  if (roll < 0.07) return Math.floor(random() * 10_000_000_000);
  const npa = roll < 0.15 ? pick(TOLL_FREE) : pick(US_AREA_CODES);
  const nxx = 200 + Math.floor(random() * 800);
  return npa * 10_000_000 + nxx * 10_000 + Math.floor(random() * 10_000);
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint();
  const value = run();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

function best(label: string, run: () => number): number {
  let fastest = 0;
  let checksum = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { value, ms } = timed(run);
    checksum = value;
    fastest = Math.max(fastest, COUNT / (ms / 1000));
  }
  out(`${label.padEnd(34)} ${(fastest / 1e6).toFixed(1).padStart(7)} M lookups/s  (checksum ${checksum})`);
  return fastest;
}

function describeTable(label: string, table: ExchangeTable): void {
  const { exchanges, blocks, numbers, total } = table.memory();
  const { stats } = table;
  out(
    `${label}: ${stats.exchanges.toLocaleString('en-US')} exchanges (${stats.mobile} mobile, ${stats.landline} landline, ${stats.voip} voip, ${stats.notInService} not in service), ${stats.blocks.toLocaleString('en-US')} blocks, ${stats.numbers.toLocaleString('en-US')} numbers`,
  );
  out(
    `  memory: exchanges ${mb(exchanges)}, blocks ${mb(blocks)}, numbers ${mb(numbers)}, total ${mb(total)}`,
  );
}

out(`Node ${process.version}, best of ${ROUNDS} rounds over ${COUNT.toLocaleString('en-US')} numbers`);

const cold = timed(() => sampleExchangeTable());
const warm = Math.min(...[2, 3, 4].map((s) => timed(() => sampleExchangeTable(s)).ms));
out(`sampleExchangeTable: ${cold.ms.toFixed(0)} ms cold, ${warm.toFixed(0)} ms warm`);
const sample = cold.value;
describeTable('sample', sample);

// The sample with five million ported numbers on top, as a large real import would have.
const portedBuild = timed(() => {
  const builder = new ExchangeTableBuilder();
  for (const npa of US_AREA_CODES) {
    builder.coverArea(npa);
    for (let nxx = 200; nxx <= 999; nxx++)
      builder.setExchange(npa * 1000 + nxx, sample.lineTypeCode(npa * 10_000_000 + nxx * 10_000));
  }
  for (let i = 0; i < PORTED; i++) {
    const number =
      pick(US_AREA_CODES) * 10_000_000 +
      (200 + Math.floor(random() * 800)) * 10_000 +
      Math.floor(random() * 10_000);
    builder.setNumber(number, (1 + Math.floor(random() * 3)) as 1 | 2 | 3);
  }
  return builder.build('ported');
});
out(`builder with ${PORTED.toLocaleString('en-US')} ported numbers: ${portedBuild.ms.toFixed(0)} ms`);
describeTable('ported', portedBuild.value);

out(`Generating ${COUNT.toLocaleString('en-US')} numbers...`);
const numbers = new Float64Array(COUNT);
for (let i = 0; i < COUNT; i++) numbers[i] = realisticNumber();
const set = new Set<number>(numbers);

const bare = best('classifyCode, no exchange data', () => {
  let sum = 0;
  for (let i = 0; i < numbers.length; i++) sum += classifyCode(numbers[i]!);
  return sum;
});
const withSample = best('classifyCode + sample table', () => {
  let sum = 0;
  for (let i = 0; i < numbers.length; i++) sum += classifyCode(numbers[i]!, sample);
  return sum;
});
const ported = portedBuild.value;
const withPorted = best('classifyCode + 5 M ported numbers', () => {
  let sum = 0;
  for (let i = 0; i < numbers.length; i++) sum += classifyCode(numbers[i]!, ported);
  return sum;
});
const setRate = best('Set.has', () => {
  let hits = 0;
  for (let i = 0; i < numbers.length; i++) if (set.has(numbers[i]!)) hits++;
  return hits;
});
out(
  `ratios: sample table ${(withSample / setRate).toFixed(1)}x the Set, ported ${(withPorted / setRate).toFixed(1)}x; the table costs ${((1 / withSample - 1 / bare) * 1e9).toFixed(1)} ns a lookup`,
);

// A CO code file as large as the real one (every exchange of every US area code), read from memory.
const ocnLineTypes = new Map(
  Object.values(LINE_TYPE_WORDS).map((lineType, i) => [String(9000 + i), lineType] as const),
);
const rows = [
  'State\tNPA-NXX\tOCN\tCompany\tRateCenter\tEffectiveDate\tUse\tAssignDate\tInitial/Growth\tPooled Code\tIn Service',
];
for (const npa of US_AREA_CODES) {
  for (let nxx = 200; nxx <= 999; nxx++) {
    rows.push(
      `NJ\t${npa}-${nxx}\t${9000 + (nxx % 20)}\tSYNTHETIC CARRIER ${nxx}\tSYNTHETIC\t01/01/2001\tAS\t01/01/2001\tI\tN\tY`,
    );
  }
}
const file = Buffer.from(`${rows.join('\n')}\n`, 'latin1');
const builder = new ExchangeTableBuilder();
const start = process.hrtime.bigint();
const report = await importCoCodeFile(Readable.from([file]), builder, { ocnLineTypes });
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
out(
  `importCoCodeFile: ${report.rowsUsed.toLocaleString('en-US')} rows (${mb(file.length)}) in ${(seconds * 1000).toFixed(0)} ms, ${(report.rowsUsed / seconds / 1e3).toFixed(0)} k rows/s`,
);
