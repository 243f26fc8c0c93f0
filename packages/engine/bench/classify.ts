// classifyCode beside a plain JavaScript Set.has over the same numbers, in the same run: the
// target is to be at least as fast as the Set. Parsing strings is measured apart, as the slower
// step it is.
//
//   pnpm --filter @scrub/engine bench [count]      (default 10,000,000 numbers)
import { mulberry32, picker, TOLL_FREE, usAreaCodes } from '@scrub/test-fixtures';
import { areaCodeInfo } from '../src/area-codes.ts';
import { classifyCode } from '../src/classify.ts';
import { parsePhone } from '../src/parse-phone.ts';

const COUNT = Number(process.argv[2] ?? 10_000_000);
const ROUNDS = 3;
const PARSE_COUNT = Math.min(COUNT, 1_000_000);

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

function rate(count: number, nanoseconds: bigint): number {
  return count / (Number(nanoseconds) / 1e9);
}

function best(label: string, run: () => number): number {
  let fastest = Number.POSITIVE_INFINITY;
  let checksum = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    checksum = run();
    fastest = Math.min(fastest, rate(COUNT, process.hrtime.bigint() - start));
  }
  const millions = (fastest / 1e6).toFixed(1).padStart(7);
  process.stdout.write(`${label.padEnd(14)} ${millions} M lookups/s  (checksum ${checksum})\n`);
  return fastest;
}

process.stdout.write(`Generating ${COUNT.toLocaleString('en-US')} numbers...\n`);
const numbers = new Float64Array(COUNT);
for (let i = 0; i < COUNT; i++) numbers[i] = realisticNumber();
const set = new Set<number>(numbers);

process.stdout.write(
  `Node ${process.version}, best of ${ROUNDS} rounds over ${COUNT.toLocaleString('en-US')} numbers\n`,
);
const classifyRate = best('classifyCode', () => {
  let sum = 0;
  for (let i = 0; i < numbers.length; i++) sum += classifyCode(numbers[i]!);
  return sum;
});
const setRate = best('Set.has', () => {
  let hits = 0;
  for (let i = 0; i < numbers.length; i++) if (set.has(numbers[i]!)) hits++;
  return hits;
});
process.stdout.write(`ratio          ${(classifyRate / setRate).toFixed(2)}x the Set\n`);

// Plain forms take a quick path, and so do spreadsheet floats and extensions after a plain form;
// the others (quotes, labels, Unicode) the general one.
const FORMS: readonly ((a: string, b: string, c: string) => string)[] = [
  (a, b, c) => `(${a}) ${b}-${c}`,
  (a, b, c) => `${a}-${b}-${c}`,
  (a, b, c) => `+1 ${a} ${b} ${c}`,
  (a, b, c) => `${a}${b}${c}.0`,
  (a, b, c) => `"${a}.${b}.${c}"`,
  (a, b, c) => `${a}-${b}-${c} x12`,
  (a, b, c) => `Cell: 1 (${a}) ${b}-${c}`,
  (a, b, c) => `${a}\u00A0${b}\u00A0${c}`,
];

function parseRate(label: string, formCount: number): void {
  const texts = Array.from({ length: PARSE_COUNT }, (_, i) => {
    const digits = String(numbers[i]).padStart(10, '0');
    return FORMS[i % formCount]!(digits.slice(0, 3), digits.slice(3, 6), digits.slice(6));
  });
  let fastest = 0;
  let read = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    read = 0;
    for (const text of texts) if (parsePhone(text).ok) read++;
    fastest = Math.max(fastest, rate(PARSE_COUNT, process.hrtime.bigint() - start));
  }
  const millions = (fastest / 1e6).toFixed(2).padStart(7);
  process.stdout.write(`${label.padEnd(22)} ${millions} M strings/s  (${read} of ${PARSE_COUNT} read)\n`);
}

parseRate('parsePhone, plain forms', 3);
parseRate('parsePhone, all forms', FORMS.length);
