// Most phone cells in a lead list are written one of a few plain ways: 2015550123, 201-555-0123,
// (201) 555-0123, +1 201.555.0123. parsePhone reads those first with one regular expression
// (PLAIN); this reads the same forms from the file's bytes, with no string made, and gives the same
// number. Anything else goes to parsePhone.

const PLUS = 0x2b;
const ONE = 0x31;
const OPEN = 0x28;
const CLOSE = 0x29;
const SPACE = 0x20;

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
