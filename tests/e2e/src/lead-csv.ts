import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** What a generated file holds, known from generating it: what its job must count. */
export interface LeadFile {
  rows: number;
  bytes: number;
  /** Rows whose phone is no valid US number (junk, short, unassigned area codes). */
  invalid: number;
  tollFree: number;
  /** Distinct valid numbers: the credits the job keeps. */
  unique: number;
  /** Rows with a valid number an earlier row has. */
  duplicates: number;
}

export const LEAD_HEADER = 'first_name,last_name,email,street,city,state,zip,phone,dob,notes';

// Area codes and exchanges that are valid everywhere: geographic, in service, no N11, 555 or 950.
const AREA_CODES = [201, 212, 213, 305, 312, 404, 415, 503, 512, 602, 617, 702, 713, 720, 808, 917];
const EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter(
  (nxx) => nxx % 100 !== 11 && ![555, 950, 958, 959, 976].includes(nxx),
);
const TOLL_FREE = [800, 833, 844, 855, 866, 877, 888];
// None of these is a valid ten-digit number, whatever the reference data says.
const JUNK = ['', 'n/a', '555-1234', 'call office', '000-000-0000', '12345', '(111) 222-3333'];
const FIRST = ['James', 'Mary', 'John', 'Linda', 'Robert', 'Ana', 'Michael', 'Sarah', 'David', 'Kim'];
const LAST = ['Smith', 'Johnson', 'Garcia', 'Brown', 'Lee', 'Miller', 'Davis', 'Nguyen', 'Lopez'];
const STREETS = ['Oak', 'Main', 'Pine', 'Maple', 'Cedar', 'Elm', 'Lake', 'Hill', 'Park'];
const CITIES = ['Austin', 'Denver', 'Miami', 'Newark', 'Tulsa', 'Fresno', 'Boise', 'Reno'];
const STATES = ['TX', 'CO', 'FL', 'NJ', 'OK', 'CA', 'ID', 'NV', 'NY', 'IL'];
// Cells a spreadsheet would run: the result must neutralise them.
const NOTES = [
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  'call after 5',
  '"=HYPERLINK(""http://x.example"")"',
  '@boss',
  '-1',
  '+ve',
];

/** mulberry32: the same file on every machine. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function formatted(number: number, roll: number): string {
  const d = String(number);
  const [a, b, c] = [d.slice(0, 3), d.slice(3, 6), d.slice(6)];
  if (roll < 0.25) return `(${a}) ${b}-${c}`;
  if (roll < 0.45) return `${a}-${b}-${c}`;
  if (roll < 0.6) return d;
  if (roll < 0.7) return `${a}.${b}.${c}`;
  if (roll < 0.8) return `+1 ${a} ${b} ${c}`;
  if (roll < 0.88) return `1-${a}-${b}-${c}`;
  if (roll < 0.94) return `"(${a}) ${b}-${c}"`;
  return `${a}-${b}-${c} x${100 + Math.floor(roll * 1000)}`;
}

/**
 * Writes a lead list of `rows` rows (and a header) to `path`: ten columns, some streets quoted with
 * a comma, phones in eight forms, about 4% junk, 5% toll free, 6% repeats of an earlier number.
 */
export async function writeLeadCsv(path: string, rows: number, seed = 0x5c7b): Promise<LeadFile> {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // Which numbers the file has so far: one bit per number the generator can write (23 area codes
  // of 787 exchanges, 22 MB), far quicker than a Set of millions.
  const codes = [...AREA_CODES, ...TOLL_FREE];
  const seen = new Uint8Array(Math.ceil((codes.length * EXCHANGES.length * 10_000) / 8));
  const recent: number[] = [];
  const file = createWriteStream(path);
  const counts = { invalid: 0, tollFree: 0, duplicates: 0, unique: 0 };
  let bytes = 0;
  let lines = [LEAD_HEADER];
  const flush = async () => {
    const text = `${lines.join('\n')}\n`;
    bytes += Buffer.byteLength(text);
    lines = [];
    if (!file.write(text)) await once(file, 'drain');
  };
  for (let i = 0; i < rows; i++) {
    const roll = random();
    let phone: string;
    if (roll < 0.04) {
      phone = pick(JUNK);
      counts.invalid++;
    } else {
      // A number as its index: (area code, exchange, line).
      let index: number;
      if (roll < 0.1 && recent.length > 0) {
        index = pick(recent);
      } else {
        const code =
          roll < 0.15
            ? AREA_CODES.length + Math.floor(random() * TOLL_FREE.length)
            : Math.floor(random() * AREA_CODES.length);
        index = (code * EXCHANGES.length + Math.floor(random() * EXCHANGES.length)) * 10_000;
        index += Math.floor(random() * 10_000);
      }
      const line = index % 10_000;
      const exchange = Math.floor(index / 10_000) % EXCHANGES.length;
      const code = Math.floor(index / 10_000 / EXCHANGES.length);
      if (code >= AREA_CODES.length) counts.tollFree++;
      const bit = 1 << (index & 7);
      if ((seen[index >>> 3]! & bit) !== 0) counts.duplicates++;
      else {
        seen[index >>> 3]! |= bit;
        counts.unique++;
      }
      if (recent.length < 1000) recent.push(index);
      else recent[i % 1000] = index;
      phone = formatted(codes[code]! * 10_000_000 + EXCHANGES[exchange]! * 10_000 + line, random());
    }
    const first = pick(FIRST);
    const last = pick(LAST);
    const street = `${10 + Math.floor(random() * 9000)} ${pick(STREETS)} St`;
    const address = random() < 0.08 ? `"${street}, Apt ${1 + Math.floor(random() * 40)}"` : street;
    const city = pick(CITIES);
    const state = pick(STATES);
    const zip = 10000 + Math.floor(random() * 90000);
    const dob = `19${40 + Math.floor(random() * 60)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)}`;
    lines.push(
      `${first},${last},${first}.${last}${i}@example.com,${address},${city},${state},${zip},${phone},${dob},${pick(NOTES)}`,
    );
    if (lines.length >= 10_000) await flush();
  }
  await flush();
  file.end();
  await once(file, 'close');
  return { rows, bytes, ...counts };
}

/**
 * A row of `writeLeadCsv` as the result writes it: cells a spreadsheet would run as formulas (`=`,
 * `+`, `-`, `@` first) start with an apostrophe, inside the quotes of a quoted cell. (A cell starts
 * after a comma: none of the quoted cells written holds a comma followed by one of these.)
 */
export function neutralised(line: string): string {
  return line.replace(/(^|,)("?)([=+\-@])/g, "$1$2'$3");
}
