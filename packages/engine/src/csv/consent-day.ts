import { dayOf } from '../reassigned/disconnect-list.ts';
import { fieldText } from './row-scanner.ts';

const ZERO = 0x30;
const DASH = 0x2d;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digit at `at` (0-9), or -1 for any other byte. */
function digitAt(buf: Uint8Array, at: number): number {
  const digit = buf[at]! - ZERO;
  return digit >= 0 && digit <= 9 ? digit : -1;
}

/** Days since 1970-01-01 of a calendar day (proleptic Gregorian), without a Date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return (
    era * 146_097 +
    yearOfEra * 365 +
    Math.floor(yearOfEra / 4) -
    Math.floor(yearOfEra / 100) +
    dayOfYear -
    719_468
  );
}

/**
 * A consent cell's day, as `dayOf` reads its text: a plain `YYYY-MM-DD` (years 1000-9999) read from
 * the file's bytes, with no string made, and anything else (`M/D/YYYY`, spaces, quotes) by `dayOf`.
 */
export function consentDayOf(buf: Uint8Array, start: number, end: number): number {
  if (end - start === 10 && buf[start + 4] === DASH && buf[start + 7] === DASH) {
    const y0 = digitAt(buf, start);
    const y1 = digitAt(buf, start + 1);
    const y2 = digitAt(buf, start + 2);
    const y3 = digitAt(buf, start + 3);
    const m0 = digitAt(buf, start + 5);
    const m1 = digitAt(buf, start + 6);
    const d0 = digitAt(buf, start + 8);
    const d1 = digitAt(buf, start + 9);
    if (y0 > 0 && (y1 | y2 | y3 | m0 | m1 | d0 | d1) >= 0) {
      const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
      const month = m0 * 10 + m1;
      const day = d0 * 10 + d1;
      if (month < 1 || month > 12 || day < 1) return Number.NaN;
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      const length = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
      return day > length ? Number.NaN : daysFromCivil(year, month, day);
    }
  }
  return dayOf(fieldText(buf, start, end));
}
