// Most phone cells in a lead list are written one of a few plain ways: 2015550123, 201-555-0123,
// (201) 555-0123, +1 201.555.0123. parsePhone reads those first with one regular expression
// (PLAIN); this reads the same forms from the file's bytes, with no string made, and gives the same
// number. A CRM export adds two more that parsePhone reads by its general path: a spreadsheet's
// float (2015550123.0) and a plain form with an extension ((201)555-0123 x12); `quickPhone` reads
// those too. Anything else goes to parsePhone.

const PLUS = 0x2b;
const ONE = 0x31;
const OPEN = 0x28;
const CLOSE = 0x29;
const SPACE = 0x20;
const DOT = 0x2e;
const ZERO = 0x30;
const HASH = 0x23;
// Lower case ASCII letters, as `byte | 0x20` gives them for either case.
const LOWER_E = 0x65;
const LOWER_T = 0x74;
const LOWER_X = 0x78;
// parsePhone refuses a longer input (too_long) without reading it.
const MAX_INPUT_LENGTH = 256;
const MAX_EXTENSION_DIGITS = 10;

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

// PLAIN's [-. ].
const isPunctuation = (byte: number | undefined) => byte === 0x2d || byte === 0x2e || byte === SPACE;

/** Three (or `count`) ASCII digits at `at` as a number, or -1. */
function digits(buf: Uint8Array, at: number, end: number, count: number): number {
  if (at + count > end) return -1;
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = buf[i]! - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** `(?:\((\d{3})\) ?|(\d{3})[-. ]?)(\d{3})[-. ]?(\d{4})$` from `at`. */
function national(buf: Uint8Array, at: number, end: number): number {
  let i = at;
  let areaCode: number;
  if (buf[i] === OPEN) {
    areaCode = digits(buf, i + 1, end, 3);
    if (areaCode === -1 || i + 4 >= end || buf[i + 4] !== CLOSE) return -1;
    i += 5;
    if (i < end && buf[i] === SPACE) i++;
  } else {
    areaCode = digits(buf, i, end, 3);
    if (areaCode === -1) return -1;
    i += 3;
    if (i < end && isPunctuation(buf[i])) i++;
  }
  const exchange = digits(buf, i, end, 3);
  if (exchange === -1) return -1;
  i += 3;
  if (i < end && isPunctuation(buf[i])) i++;
  const line = digits(buf, i, end, 4);
  if (line === -1 || i + 4 !== end) return -1;
  return areaCode * 10_000_000 + exchange * 10_000 + line;
}

/**
 * The 10-digit number when `buf[start..end)` is one of parsePhone's plain forms, with or without
 * +1 or 1 in front: the number parsePhone would give. -1 when it is not one of them (it may still
 * be a number parsePhone reads).
 */
export function plainPhone(buf: Uint8Array, start: number, end: number): number {
  if (start >= end) return -1;
  const first = buf[start];
  if (first === PLUS) {
    if (start + 1 >= end || buf[start + 1] !== ONE) return -1;
    const at = start + 2 < end && isPunctuation(buf[start + 2]) ? start + 3 : start + 2;
    return national(buf, at, end);
  }
  if (first === ONE) {
    // PLAIN tries the 1 as a country code first, then as the area code's first digit.
    const at = start + 1 < end && isPunctuation(buf[start + 1]) ? start + 2 : start + 1;
    const number = national(buf, at, end);
    if (number !== -1) return number;
  }
  return national(buf, start, end);
}

/**
 * The 10-digit number parsePhone gives `buf[start..end)` when it is a plain form (`plainPhone`), a
 * spreadsheet's float of a number (2015550123.0, 12015550123.0, +12015550123.0) or a plain form
 * followed by an extension (` x12`, `x.12`, ` ext. 12`, ` #12`); -1 for anything else, which
 * parsePhone may still read. ASCII only, and never a number parsePhone would refuse.
 */
export function quickPhone(buf: Uint8Array, start: number, end: number): number {
  const number = plainPhone(buf, start, end);
  if (number !== -1 || end - start > MAX_INPUT_LENGTH) return number;
  if (!isDigit(buf[end - 1])) return -1;
  const float = buf[end - 1] === ZERO ? spreadsheetFloat(buf, start, end) : -1;
  return float !== -1 ? float : withExtension(buf, start, end);
}

/**
 * `[+]digits.0+` whose digits are a national number, as parsePhone's general path reads it: ten
 * digits not starting with 0 (00 and 011 are international prefixes), or eleven starting with the
 * country code 1 (which a + requires).
 */
function spreadsheetFloat(buf: Uint8Array, start: number, end: number): number {
  const plus = buf[start] === PLUS;
  const first = plus ? start + 1 : start;
  let point = first;
  while (point < end && isDigit(buf[point])) point++;
  if (point + 1 >= end || buf[point] !== DOT) return -1;
  for (let i = point + 1; i < end; i++) if (buf[i] !== ZERO) return -1;
  const count = point - first;
  if (count === 11 && buf[first] === ONE) return digits(buf, first + 1, point, 10);
  if (count === 10 && !plus && buf[first] !== ZERO) return digits(buf, first, point, 10);
  return -1;
}

/**
 * A plain form, spaces, an extension mark (x, ext, #; a dot after it), spaces, and 1 to 10 digits:
 * parsePhone's EXTENSION takes exactly the part after the plain form, and its general path reads
 * the plain form as PLAIN does unless it starts with 0 (an international prefix, 00 or 011, when
 * no country code is written).
 */
function withExtension(buf: Uint8Array, start: number, end: number): number {
  let i = end;
  while (i > start && isDigit(buf[i - 1])) i--;
  if (end - i > MAX_EXTENSION_DIGITS) return -1;
  while (i > start && buf[i - 1] === SPACE) i--;
  if (i > start && buf[i - 1] === DOT) i--;
  if (i > start && (buf[i - 1] === HASH || (buf[i - 1]! | 0x20) === LOWER_X)) {
    i--;
  } else if (
    i - 3 >= start &&
    (buf[i - 3]! | 0x20) === LOWER_E &&
    (buf[i - 2]! | 0x20) === LOWER_X &&
    (buf[i - 1]! | 0x20) === LOWER_T
  ) {
    i -= 3;
  } else {
    return -1;
  }
  while (i > start && buf[i - 1] === SPACE) i--;
  const firstDigit = buf[start] === OPEN ? buf[start + 1] : buf[start];
  if (firstDigit === ZERO) return -1;
  return plainPhone(buf, start, i);
}
