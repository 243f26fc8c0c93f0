import { callingCodeOf } from './calling-codes.ts';

/** Why an input is not a 10-digit NANP number. Stable: clients and result files may branch on them. */
export const PARSE_FAILURE_REASONS = [
  'empty',
  'spreadsheet_error',
  'negative_number',
  'scientific_notation',
  'no_digits',
  'invalid_characters',
  'letters_ambiguous',
  'not_nanp',
  'too_short',
  'too_long',
] as const;

export type ParseFailureReason = (typeof PARSE_FAILURE_REASONS)[number];

/** What the parser changed or removed to read a number, in the order it did. */
export const PARSE_NOTES = [
  'unicode_normalized',
  'spreadsheet_formula',
  'spreadsheet_apostrophe',
  'quotes_removed',
  'spreadsheet_float',
  'scientific_notation_exact',
  'tel_uri',
  'label_removed',
  'extension_removed',
  'international_prefix_removed',
  'country_code_removed',
  'letters_mapped',
  'trailing_letters_dropped',
] as const;

export type ParseNote = (typeof PARSE_NOTES)[number];

export interface ParsedPhone {
  ok: true;
  /** The ten national digits, NPA-NXX-XXXX: '2015550123'. */
  digits: string;
  /** The same as an integer, what `classifyCode` takes: 2015550123. */
  number: number;
  /** '+12015550123'. */
  e164: string;
  /** Digits of an extension found after the number, which is reported and never dialled. */
  extension?: string;
  notes: ParseNote[];
}

export interface ParseFailure {
  ok: false;
  reason: ParseFailureReason;
  /** A sentence for people; it quotes the input but never starts with it (a spreadsheet could run it). */
  message: string;
}

export type ParseResult = ParsedPhone | ParseFailure;

// Longer than any number a person writes with an extension and a label; bounds the work per cell.
const MAX_INPUT_LENGTH = 256;
const MAX_EXTENSION_DIGITS = 10;
const SHOWN_LENGTH = 40;
// A vanity word cut at the tenth digit must have given the number its whole line number (four
// digits, as 1-800-MATTRESS does); fewer, and the word is more likely a label after a number
// with digits missing ("201-555-012 home"), which mapping would complete with a guess.
const MIN_CUT_WORD_DIGITS = 4;

// 2015550123, 201-555-0123, (201) 555-0123, +1 201.555.0123, 12015550123.
const PLAIN = /^(\+?1[-. ]?)?(?:\((\d{3})\) ?|(\d{3})[-. ]?)(\d{3})[-. ]?(\d{4})$/;
// What CRM exports write besides: a spreadsheet's float (2015550123.0, 12015550123.0,
// +12015550123.0), and a plain form with an extension ((201)555-0123 x12, ... ext. 12, ... #12).
const PLAIN_FLOAT = /^(\+1|1(?=\d{10}\.))?(\d{10})\.0+$/;
const PLAIN_EXTENSION =
  /^(\+?1[-. ]?)?(?:\((\d{3})\) ?|(\d{3})[-. ]?)(\d{3})[-. ]?(\d{4}) *(?:x|#|ext)\.? *(\d{1,10})$/i;

const KEYPAD = '22233344455566677778889999';

const QUOTES = /["'`\u00AB\u00BB\u2018-\u201F\u2032-\u2037]/g;
const SPREADSHEET_ERROR =
  /^(?:#(?:NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|GETTING_DATA|SPILL!|CALC!|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!|EXTERNAL!|PYTHON!|ERROR!)|Err:\d{3})$/i;
// A whole cell that is a number as a spreadsheet writes it: 2015550123, 2015550123.0, 2.01555E+09.
const NUMERIC = /^([+-]?)(\d+)(?:[.,](\d+))?(?:e([+-]?\d{1,3}))?$/i;
// "Phone:", "Cell ", "Call " before the number.
const LABEL = /^\p{L}[\p{L}.]*(?:[ \t]\p{L}[\p{L}.]*)*\s*(?::\s*|\s+(?=[+(\d]))/u;
// x45, ext. 45, extension: 45, #45 after the number; the mark follows a digit, space or bracket,
// so the X of a vanity word (1-800-XEROX, BOX) is not one.
const EXTENSION = new RegExp(
  `(?<=[\\d\\s)\\]])\\s*(?:ext(?:ension|n)?\\.?|x\\.?|#)\\s*[:.=#-]?\\s*(\\d{1,${MAX_EXTENSION_DIGITS}})$`,
  'i',
);
const SEPARATOR = /[\s\-.()[\]/,]/;
const DECIMAL_DIGIT = /\p{Nd}/u;
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;
const NON_ASCII = /[\u0080-\uFFFF]/;

// JSON quoting escapes control characters; cutting by code point keeps emoji whole.
function quote(text: string): string {
  const chars = [...text.trim()];
  return JSON.stringify(
    chars.length > SHOWN_LENGTH ? `${chars.slice(0, SHOWN_LENGTH - 3).join('')}...` : chars.join(''),
  );
}

const digitCount = (count: number) => `${count} digit${count === 1 ? '' : 's'}`;

function fail(reason: ParseFailureReason, message: string): ParseFailure {
  return { ok: false, reason, message };
}

// Unicode guarantees that decimal digits come in runs of ten, 0 to 9, so a digit's value is its
// distance from the start of its run, modulo ten.
function asciiDigit(digit: string): string {
  const codePoint = digit.codePointAt(0)!;
  let start = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((codePoint - start) % 10);
}

// NFKC turns full-width digits, non-breaking spaces and circled digits into plain ones; other
// scripts' digits (Arabic-Indic, Devanagari...) are mapped by value; invisible format characters
// that copying from web pages brings along (zero-width spaces, direction marks) go.
function normalizeUnicode(input: string): string {
  if (!NON_ASCII.test(input)) return input;
  return input
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(NON_ASCII_DIGIT, asciiDigit);
}

type NumericCell = { text: string; note: ParseNote } | ParseFailure | null;

/** A cell that is a number as a spreadsheet wrote it; null when the cell is not one. */
function readNumericCell(text: string, show: () => string): NumericCell {
  const match = NUMERIC.exec(text);
  if (!match) return null;
  const [, sign = '', integer = '', fraction, exponent] = match;
  if (sign === '-') return fail('negative_number', `Negative number ${show()}: not a phone number`);
  if (exponent !== undefined) {
    // Exact only when the mantissa holds every digit: 2.015550123E9 does, 2.01555E+09 lost four.
    const mantissa = integer + (fraction ?? '');
    const point = integer.length + Number(exponent);
    if (point > mantissa.length) {
      const significant = mantissa.replace(/^0+/, '').length;
      return fail(
        'scientific_notation',
        `Scientific notation ${show()} keeps only ${significant} significant digits; the rest were lost. Format the column as text and export it again`,
      );
    }
    if (/[1-9]/.test(mantissa.slice(Math.max(point, 0)))) {
      return fail('scientific_notation', `Scientific notation ${show()} is not a whole number`);
    }
    return {
      text: mantissa.slice(0, Math.max(point, 0)).replace(/^0+/, ''),
      note: 'scientific_notation_exact',
    };
  }
  // 2015550123.0 is a float; 201.5550123 has dots for separators, as a person reads it.
  if (fraction !== undefined && /^0+$/.test(fraction))
    return { text: sign + integer, note: 'spreadsheet_float' };
  return null;
}

interface Walk {
  /** Digits, written or mapped from letters. */
  digits: string;
  /** Per digit: -1 when written as a digit, else the index of the letter run it came from. */
  runOf: number[];
  plus: boolean;
  writtenDigits: number;
}

interface LetterRun {
  letters: string;
  start: number;
}

/** Reads digits and keypad letters, refusing any other character than separators and a leading +. */
function walk(text: string, show: () => string): Walk | ParseFailure {
  const result: Walk = { digits: '', runOf: [], plus: false, writtenDigits: 0 };
  const runs: LetterRun[] = [];
  let run: LetterRun | null = null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // ASCII letters: clearing bit 5 makes lower case upper.
    const upper = code & ~0x20;
    if (upper >= 0x41 && upper <= 0x5a) {
      if (run === null) {
        run = { letters: '', start: i };
        runs.push(run);
      }
      run.letters += String.fromCharCode(upper);
      result.digits += KEYPAD[upper - 0x41];
      result.runOf.push(runs.length - 1);
      continue;
    }
    run = null;
    if (code >= 0x30 && code <= 0x39) {
      result.digits += text[i];
      result.runOf.push(-1);
      result.writtenDigits++;
    } else if (code === 0x2b && result.digits === '' && !result.plus) {
      result.plus = true;
    } else if (!SEPARATOR.test(text[i]!)) {
      const char = String.fromCodePoint(text.codePointAt(i)!);
      return fail(
        'invalid_characters',
        `Character ${JSON.stringify(char)} in ${show()} is not part of a phone number`,
      );
    }
  }
  if (result.writtenDigits === 0) return result;
  const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';
  for (const { letters, start } of runs) {
    if (letters.length === 1 && (isDigit(text[start - 1]) || isDigit(text[start + 1]))) {
      return fail(
        'letters_ambiguous',
        `Letter "${text[start]}" among the digits of ${show()}: a typo for a digit (O for 0, l for 1)? Write the number in digits`,
      );
    }
  }
  return result;
}

function notNanp(international: string, show: () => string, plus: boolean): ParseFailure {
  if (international.startsWith('0')) {
    return fail('not_nanp', `Not a US number: ${show()} has a country code starting with 0, which none does`);
  }
  const callingCode = callingCodeOf(international);
  const who = callingCode
    ? `has country code +${callingCode.code} (${callingCode.name})`
    : `starts with +${international.slice(0, 3)}, not an assigned country code`;
  const hint =
    plus && /^[2-9]\d{9}$/.test(international)
      ? `. If it is a US number, write it without the +, or as +1 ${international.slice(0, 3)} ${international.slice(3, 6)} ${international.slice(6)}`
      : '';
  return fail('not_nanp', `Not a US number: ${show()} ${who}; Scrub checks US numbers (+1) only${hint}`);
}

/**
 * A spreadsheet's float of a plain number, or a plain form with an extension, read as the general
 * path reads it (the same digits, notes and extension); null for anything else. Ten digits starting
 * with 0 go to the general path, which reads 00 and 011 as international prefixes.
 */
function readPlainFloatOrExtension(input: string): ParsedPhone | null {
  const float = PLAIN_FLOAT.exec(input);
  if (float) {
    const [, countryCode, digits = ''] = float;
    if (countryCode === undefined && digits.startsWith('0')) return null;
    const notes: ParseNote[] = ['spreadsheet_float'];
    if (countryCode !== undefined) notes.push('country_code_removed');
    return { ok: true, digits, number: Number(digits), e164: `+1${digits}`, notes };
  }
  const withExtension = PLAIN_EXTENSION.exec(input);
  if (!withExtension) return null;
  const [, countryCode, bracketed, areaCode, exchange, line, extension] = withExtension;
  const digits = `${bracketed ?? areaCode}${exchange}${line}`;
  if (countryCode === undefined && digits.startsWith('0')) return null;
  const notes: ParseNote[] = ['extension_removed'];
  if (countryCode !== undefined) notes.push('country_code_removed');
  return { ok: true, digits, number: Number(digits), e164: `+1${digits}`, notes, extension };
}

/**
 * Reads what people paste and spreadsheets export as a 10-digit NANP number, or says why it
 * cannot. Syntax only: whether the number exists is `classifyCode`'s question. Never guesses a
 * missing digit. See the README's "Rules" for every form it reads and refuses.
 */
export function parsePhone(input: string): ParseResult {
  // The forms most cells hold, read without the general path's work; the answer is the same.
  const plain = PLAIN.exec(input);
  if (plain) {
    const [, countryCode, bracketed, areaCode, exchange, line] = plain;
    const digits = `${bracketed ?? areaCode}${exchange}${line}`;
    const notes: ParseNote[] = countryCode === undefined ? [] : ['country_code_removed'];
    return { ok: true, digits, number: Number(digits), e164: `+1${digits}`, notes };
  }
  if (input.length > MAX_INPUT_LENGTH) {
    return fail('too_long', `Too long for a phone number: ${input.length} characters`);
  }
  const quick = readPlainFloatOrExtension(input);
  if (quick) return quick;
  return readAnyForm(input);
}

/**
 * The general path, in steps: the cell's wrapping, then its label and extension, then its digits
 * and letters, then where the national number starts, then its ten digits.
 */
function readAnyForm(input: string): ParseResult {
  // Quoted only for a message: most inputs are numbers, and quoting one costs as much as reading it.
  const show = () => quote(input);
  const notes: ParseNote[] = [];
  const cell = unwrapCell(input, notes, show);
  if (typeof cell !== 'string') return cell;
  const { text, extension } = takeLabelAndExtension(cell, notes);

  const read = walk(text, show);
  if ('ok' in read) return read;
  if (read.writtenDigits === 0) return fail('no_digits', `No digits in ${show()}: not a phone number`);
  if (read.runOf[0] !== -1) {
    return fail(
      'letters_ambiguous',
      `Letters before the area code in ${show()}: write the area code in digits`,
    );
  }
  const start = nationalStart(read, notes, show);
  if (typeof start !== 'number') return start;
  const ten = tenDigitsOf(read, start, notes, show);
  if (typeof ten !== 'string') return ten;

  const parsed: ParsedPhone = { ok: true, digits: ten, number: Number(ten), e164: `+1${ten}`, notes };
  if (extension !== undefined) parsed.extension = extension;
  return parsed;
}

/**
 * The cell's text without what spreadsheets and people wrap a number in (a formula, an apostrophe,
 * quotes, a numeric cell's float form), or the answer when the wrapping decides it.
 */
function unwrapCell(input: string, notes: ParseNote[], show: () => string): string | ParseResult {
  let text = normalizeUnicode(input);
  if (text !== input) notes.push('unicode_normalized');
  text = text.trim();

  const formula = /^=\s*"(.*)"$/s.exec(text);
  if (formula) {
    text = formula[1]!.trim();
    notes.push('spreadsheet_formula');
  } else if (text.startsWith("'")) {
    text = text.slice(1).trim();
    notes.push('spreadsheet_apostrophe');
  }
  const unquoted = text.replace(QUOTES, '').trim();
  if (unquoted !== text) {
    text = unquoted;
    notes.push('quotes_removed');
  }
  if (text === '') return fail('empty', 'Empty: no phone number');
  if (SPREADSHEET_ERROR.test(text)) {
    return fail(
      'spreadsheet_error',
      `Spreadsheet error ${show()}, not a phone number: fix the sheet and export again`,
    );
  }

  const numeric = readNumericCell(text, show);
  if (numeric && 'ok' in numeric) return numeric;
  if (numeric) {
    text = numeric.text;
    notes.push(numeric.note);
  }
  return text;
}

/** The text without a tel: URI's scheme, a label (`Tel:`) or an extension, and the extension. */
function takeLabelAndExtension(
  input: string,
  notes: ParseNote[],
): { text: string; extension: string | undefined } {
  let text = input;
  let extension: string | undefined;
  // A tel: URI has no space after the colon; "Tel: 201..." is a label.
  const tel = /^tel:(?=[+\d])/i.exec(text);
  if (tel) {
    // RFC 3966: tel:+1-201-555-0123;ext=45;phone-context=...
    const [number = '', ...parameters] = text.slice(tel[0].length).split(';');
    text = number.trim();
    notes.push('tel_uri');
    for (const parameter of parameters) {
      const ext = /^\s*ext\s*=\s*(\d+)\s*$/i.exec(parameter);
      if (ext && ext[1]!.length <= MAX_EXTENSION_DIGITS) extension = ext[1];
    }
  }
  const label = LABEL.exec(text);
  if (label) {
    text = text.slice(label[0].length);
    notes.push('label_removed');
  }
  const ext = EXTENSION.exec(text);
  if (ext) {
    extension = ext[1];
    text = text.slice(0, ext.index).trim();
  }
  if (extension !== undefined) notes.push('extension_removed');
  return { text, extension };
}

/** Where the national number starts: after +1, 001, 0111, or a 1 in front of ten more digits. */
function nationalStart(read: Walk, notes: ParseNote[], show: () => string): number | ParseFailure {
  const { digits, plus } = read;
  let start = 0;
  if (plus) {
    if (!digits.startsWith('1')) return notNanp(digits, show, true);
    start = 1;
  } else if (digits.startsWith('011') || digits.startsWith('00')) {
    const prefix = digits.startsWith('011') ? 3 : 2;
    const international = digits.slice(prefix);
    if (international === '')
      return fail('too_short', `Too short: ${show()} is only an international prefix`);
    if (!international.startsWith('1')) return notNanp(international, show, false);
    notes.push('international_prefix_removed');
    start = prefix + 1;
  } else if (digits.length > 10 && digits.startsWith('1')) {
    start = 1;
  }
  if (start > 0) notes.push('country_code_removed');
  return start;
}

/** The national number's ten digits, from `start`: too short, too long, or letters where none may be. */
function tenDigitsOf(
  read: Walk,
  start: number,
  notes: ParseNote[],
  show: () => string,
): string | ParseFailure {
  const national = read.digits.slice(start);
  const nationalRuns = read.runOf.slice(start);
  const after = start > 0 ? ' after the country code 1' : '';
  if (national.length < 10) {
    return fail(
      'too_short',
      `Too short: ${show()} has ${digitCount(national.length)}${after}; a US number has 10`,
    );
  }
  if (nationalRuns.slice(0, 3).some((run) => run !== -1)) {
    return fail('letters_ambiguous', `Letters in the area code of ${show()}: write the area code in digits`);
  }
  if (national.length > 10) {
    const extra = nationalRuns.slice(10);
    if (extra.includes(-1)) {
      const expected =
        start > 0 ? 'a US number has 10' : 'a US number has 10, or 11 starting with the country code 1';
      const twoNumbers = national.length >= 20 ? ' (two numbers in one cell?)' : '';
      return fail(
        'too_long',
        `Too long: ${show()} has ${digitCount(national.length)}${after}; ${expected}${twoNumbers}`,
      );
    }
    // Only letters run past the tenth digit: a phone dials the first ten and ignores the rest.
    const cut = nationalRuns[9]!;
    if (cut !== -1 && extra[0] === cut) {
      const kept = nationalRuns.slice(0, 10).filter((run) => run === cut).length;
      if (kept < MIN_CUT_WORD_DIGITS) {
        return fail(
          'letters_ambiguous',
          `Letters after too few digits in ${show()}: a label, or a vanity number with digits missing? Write the number in digits`,
        );
      }
    }
    notes.push('trailing_letters_dropped');
  }
  if (nationalRuns.slice(0, 10).some((run) => run !== -1)) notes.push('letters_mapped');
  return national.slice(0, 10);
}
