import { describe, expect, it } from 'vitest';
import { PARSE_FAILURE_REASONS, type ParseNote, type ParseResult, parsePhone } from './parse-phone.ts';

function accepted(input: string): { digits: string; extension?: string; notes: ParseNote[] } {
  const result = parsePhone(input);
  if (!result.ok) throw new Error(`refused ${JSON.stringify(input)}: ${result.message}`);
  const { digits, extension, notes } = result;
  return extension === undefined ? { digits, notes } : { digits, extension, notes };
}

function refused(input: string): { reason: string; message: string } {
  const result = parsePhone(input);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(input)} as ${result.digits}`);
  return { reason: result.reason, message: result.message };
}

describe('parsePhone: what people paste', () => {
  it('answers digits, the number, E.164 and notes', () => {
    expect(parsePhone('(201) 555-0123')).toEqual({
      ok: true,
      digits: '2015550123',
      number: 2015550123,
      e164: '+12015550123',
      notes: [],
    });
  });

  it.each([
    ['(201) 555-0123', []],
    ['201-555-0123', []],
    ['201.555.0123', []],
    ['201 555 0123', []],
    ['2015550123', []],
    ['201 555 0123 ', []],
    ['  201-555-0123\t', []],
    ['201/555-0123', []],
    ['[201] 555-0123', []],
    ['201.5550123', []],
    ['2,015,550,123', []],
    ['+1 201 555 0123', ['country_code_removed']],
    ['+1-201-555-0123', ['country_code_removed']],
    ['+1.201.555.0123', ['country_code_removed']],
    ['+1 (201) 555-0123', ['country_code_removed']],
    ['+1(201)5550123', ['country_code_removed']],
    ['+12015550123', ['country_code_removed']],
    ['(+1) 201-555-0123', ['country_code_removed']],
    ['1-201-555-0123', ['country_code_removed']],
    ['1 (201) 555-0123', ['country_code_removed']],
    ['12015550123', ['country_code_removed']],
    ['001 201 555 0123', ['international_prefix_removed', 'country_code_removed']],
    ['011 1 201 555 0123', ['international_prefix_removed', 'country_code_removed']],
  ] as const)('%s', (input, notes) => {
    expect(accepted(input)).toEqual({ digits: '2015550123', notes });
  });
});

describe('parsePhone: extensions', () => {
  it.each([
    ['201-555-0123 x45', []],
    ['201-555-0123x45', []],
    ['201-555-0123 X 45', []],
    ['201-555-0123 x.45', []],
    ['201-555-0123 ext 45', []],
    ['201-555-0123 ext. 45', []],
    ['201-555-0123 Ext: 45', []],
    ['201-555-0123 extension 45', []],
    ['201-555-0123 #45', []],
    ['(201) 555-0123 # 45', []],
    ['+1 (201) 555-0123 ext. 45', ['country_code_removed']],
  ] as const)('%s', (input, notes) => {
    expect(accepted(input)).toEqual({
      digits: '2015550123',
      extension: '45',
      notes: ['extension_removed', ...notes],
    });
  });

  it('reads the ext parameter of a tel: URI and ignores the others', () => {
    expect(accepted('tel:+1-201-555-0123;ext=45;phone-context=example.com')).toEqual({
      digits: '2015550123',
      extension: '45',
      notes: ['tel_uri', 'extension_removed', 'country_code_removed'],
    });
    expect(accepted('TEL:+12015550123')).toEqual({
      digits: '2015550123',
      notes: ['tel_uri', 'country_code_removed'],
    });
  });

  it('takes no X of a vanity word for an extension', () => {
    expect(accepted('1-800-BOX-1234').digits).toBe('8002691234');
    expect(accepted('1-800-XEROX-12').digits).toBe('8009376912');
  });
});

describe('parsePhone: spreadsheets', () => {
  it.each([
    ['2015550123.0', '2015550123', ['spreadsheet_float']],
    ['2015550123.00', '2015550123', ['spreadsheet_float']],
    ['2015550123,0', '2015550123', ['spreadsheet_float']],
    ['12015550123.0', '2015550123', ['spreadsheet_float', 'country_code_removed']],
    ['2.015550123E9', '2015550123', ['scientific_notation_exact']],
    ['2.015550123e+09', '2015550123', ['scientific_notation_exact']],
    ['2.015550123000000000e+09', '2015550123', ['scientific_notation_exact']],
    ['1.2015550123E10', '2015550123', ['scientific_notation_exact', 'country_code_removed']],
    ["'2015550123", '2015550123', ['spreadsheet_apostrophe']],
    ["'201-555-0123", '2015550123', ['spreadsheet_apostrophe']],
    ['="2015550123"', '2015550123', ['spreadsheet_formula']],
    ['"201-555-0123"', '2015550123', ['quotes_removed']],
    ['"201-555-0123', '2015550123', ['quotes_removed']],
    ['  "  201-555-0123 "', '2015550123', ['quotes_removed']],
    ['\u201C201-555-0123\u201D', '2015550123', ['quotes_removed']],
  ] as const)('%s', (input, digits, notes) => {
    expect(accepted(input)).toEqual({ digits, notes });
  });

  it('refuses scientific notation that lost digits, saying how many are left', () => {
    expect(refused('2.01555E+09')).toEqual({
      reason: 'scientific_notation',
      message:
        'Scientific notation "2.01555E+09" keeps only 6 significant digits; the rest were lost. Format the column as text and export it again',
    });
    expect(refused('2.02E+09').reason).toBe('scientific_notation');
    expect(refused('2.01555012E+09').reason).toBe('scientific_notation');
    expect(refused('1.20155501E+10').reason).toBe('scientific_notation');
  });

  it('refuses scientific notation that is not a whole number', () => {
    expect(refused('2.0155501235E9')).toEqual({
      reason: 'scientific_notation',
      message: 'Scientific notation "2.0155501235E9" is not a whole number',
    });
  });

  it.each([
    '#VALUE!',
    '#N/A',
    '#REF!',
    '#NAME?',
    '#DIV/0!',
    '#NUM!',
    '#NULL!',
    '#ERROR!',
    '#SPILL!',
    'Err:502',
  ])('refuses the spreadsheet error %s', (input) => {
    expect(refused(input)).toEqual({
      reason: 'spreadsheet_error',
      message: `Spreadsheet error "${input}", not a phone number: fix the sheet and export again`,
    });
  });

  it.each(['-2015550123', '-2015550123.0', '-2.015550123E9', '-1'])(
    'refuses the negative number %s',
    (input) => {
      expect(refused(input).reason).toBe('negative_number');
    },
  );

  it('reads 1.0 as the number 1, not as digits 1 and 0', () => {
    expect(refused('1.0')).toEqual({
      reason: 'too_short',
      message: 'Too short: "1.0" has 1 digit; a US number has 10',
    });
  });
});

describe('parsePhone: Unicode', () => {
  it.each([
    ['\uFF12\uFF10\uFF11\uFF15\uFF15\uFF15\uFF10\uFF11\uFF12\uFF13', 'full-width digits'],
    ['\uFF11\uFF12\uFF10\uFF11\uFF15\uFF15\uFF15\uFF10\uFF11\uFF12\uFF13', 'full-width with the 1'],
    [
      '\uFF0B\uFF11\u3000\uFF08\uFF12\uFF10\uFF11\uFF09\uFF15\uFF15\uFF15\uFF0D\uFF10\uFF11\uFF12\uFF13',
      'full-width punctuation',
    ],
    ['\u0662\u0660\u0661\u0665\u0665\u0665\u0660\u0661\u0662\u0663', 'Arabic-Indic digits'],
    ['\u0968\u0966\u0967\u096B\u096B\u096B\u0966\u0967\u0968\u0969', 'Devanagari digits'],
    ['\u{1D7D0}\u{1D7CE}\u{1D7CF}5550123', 'mathematical digits'],
    ['201\u00A0555\u00A00123', 'no-break spaces'],
    ['201\u2013555\u20130123', 'en dashes'],
    ['201\u2011555\u22120123', 'non-breaking hyphen and minus sign'],
    ['\uFEFF\u200E201-555-\u200B0123', 'byte-order mark, direction mark, zero-width space'],
  ])('%s (%s)', (input) => {
    const { digits, notes } = accepted(input);
    expect(digits).toBe('2015550123');
    expect(notes[0]).toBe('unicode_normalized');
  });
});

describe('parsePhone: letters', () => {
  it.each([
    ['1-800-FLOWERS', '8003569377', ['country_code_removed', 'letters_mapped']],
    ['800-FLOWERS', '8003569377', ['letters_mapped']],
    ['1 800 flowers', '8003569377', ['country_code_removed', 'letters_mapped']],
    ['+1 800 GOT JUNK', '8004685865', ['country_code_removed', 'letters_mapped']],
    ['1-800-GO-FEDEX', '8004633339', ['country_code_removed', 'letters_mapped']],
    ['1-800-4MY-HOME', '8004694663', ['country_code_removed', 'letters_mapped']],
    ['212-MUSEUMS', '2126873867', ['letters_mapped']],
    ['1-800-MATTRESS', '8006288737', ['country_code_removed', 'trailing_letters_dropped', 'letters_mapped']],
    [
      '1-800-FLOWERS-NOW',
      '8003569377',
      ['country_code_removed', 'trailing_letters_dropped', 'letters_mapped'],
    ],
  ] as const)('maps %s with the keypad', (input, digits, notes) => {
    expect(accepted(input)).toEqual({ digits, notes });
  });

  it('drops a word after a complete number, as a label', () => {
    expect(accepted('201-555-0123 (home)')).toEqual({
      digits: '2015550123',
      notes: ['trailing_letters_dropped'],
    });
    expect(accepted('201-555-0123 cell x45')).toEqual({
      digits: '2015550123',
      extension: '45',
      notes: ['extension_removed', 'trailing_letters_dropped'],
    });
  });

  it('drops a label before the number', () => {
    for (const input of [
      'Phone: 201-555-0123',
      'Cell 201-555-0123',
      'Mobile phone: +1 201 555 0123',
      'Tel: 2015550123',
      'Téléphone 201-555-0123',
    ]) {
      expect(accepted(input).digits, input).toBe('2015550123');
      expect(accepted(input).notes[0], input).toBe('label_removed');
    }
  });

  it('refuses a single letter among digits, a likely typo', () => {
    expect(refused('2O1-555-0123')).toEqual({
      reason: 'letters_ambiguous',
      message:
        'Letter "O" among the digits of "2O1-555-0123": a typo for a digit (O for 0, l for 1)? Write the number in digits',
    });
    expect(refused('201-555-l234').reason).toBe('letters_ambiguous');
    expect(refused('201-555-0123a').reason).toBe('letters_ambiguous');
    expect(refused('x45').reason).toBe('letters_ambiguous');
  });

  it('refuses letters in the area code', () => {
    expect(refused('8OO-FLOWERS')).toEqual({
      reason: 'letters_ambiguous',
      message: 'Letters in the area code of "8OO-FLOWERS": write the area code in digits',
    });
    expect(refused('FLO-WER-S123').reason).toBe('letters_ambiguous');
  });

  it('never completes a number with the letters of a word after it', () => {
    expect(refused('201-555-012 home')).toEqual({
      reason: 'letters_ambiguous',
      message:
        'Letters after too few digits in "201-555-012 home": a label, or a vanity number with digits missing? Write the number in digits',
    });
    expect(refused('201-555-01 home').reason).toBe('letters_ambiguous');
    expect(refused('201-555-0 home').reason).toBe('letters_ambiguous');
  });

  it('never drops written digits after the tenth', () => {
    expect(refused('1-800-FLOWERS 2').reason).toBe('too_long');
  });
});

describe('parsePhone: not a number at all', () => {
  it.each(['', ' ', '\t\n', '""', "'", '=""', '\u200B'])('refuses the empty cell %j', (input) => {
    expect(refused(input)).toEqual({ reason: 'empty', message: 'Empty: no phone number' });
  });

  it.each(['N/A', 'n/a', 'none', 'NULL', 'unknown', '-', '--', 'FLOWERS'])(
    'refuses %s: no digits',
    (input) => {
      expect(refused(input)).toEqual({
        reason: 'no_digits',
        message: `No digits in "${input}": not a phone number`,
      });
    },
  );

  it.each([
    ['john@example.com', '@'],
    ['201*555*0123', '*'],
    ['201-555-0123!', '!'],
    ['+1 201 +555 0123', '+'],
    ['201-555-0123 \u260E', '\u260E'],
    ['201-555-0123 \u03A9', '\u03A9'],
  ])('refuses %s for the character %s', (input, char) => {
    expect(refused(input)).toEqual({
      reason: 'invalid_characters',
      message: `Character "${char}" in "${input}" is not part of a phone number`,
    });
  });

  it('refuses an input longer than any phone number without reading it', () => {
    expect(refused('1'.repeat(257))).toEqual({
      reason: 'too_long',
      message: 'Too long for a phone number: 257 characters',
    });
  });

  it('escapes control characters and quotes in messages', () => {
    expect(refused('201\u0000555\u00000123').message).toBe(
      'Character "\\u0000" in "201\\u0000555\\u00000123" is not part of a phone number',
    );
  });

  it('quotes at most 40 characters of the input in messages', () => {
    expect(refused(`${'1'.repeat(50)}`).message).toBe(
      `Too long: "${'1'.repeat(37)}..." has 49 digits after the country code 1; a US number has 10 (two numbers in one cell?)`,
    );
  });
});

describe('parsePhone: digit counts', () => {
  it.each([
    ['201555012', 'Too short: "201555012" has 9 digits; a US number has 10'],
    ['555-0123', 'Too short: "555-0123" has 7 digits; a US number has 10'],
    [
      '+1 201 555 012',
      'Too short: "+1 201 555 012" has 9 digits after the country code 1; a US number has 10',
    ],
    ['00', 'Too short: "00" is only an international prefix'],
  ])('refuses %s as too short', (input, message) => {
    expect(refused(input)).toEqual({ reason: 'too_short', message });
  });

  it.each([
    [
      '201555012345',
      'Too long: "201555012345" has 12 digits; a US number has 10, or 11 starting with the country code 1',
    ],
    [
      '22015550123',
      'Too long: "22015550123" has 11 digits; a US number has 10, or 11 starting with the country code 1',
    ],
    [
      '+1 201 555 01234',
      'Too long: "+1 201 555 01234" has 11 digits after the country code 1; a US number has 10',
    ],
    ['112015550123', 'Too long: "112015550123" has 11 digits after the country code 1; a US number has 10'],
    [
      '201-555-0123, 201-555-0199',
      'Too long: "201-555-0123, 201-555-0199" has 20 digits; a US number has 10, or 11 starting with the country code 1 (two numbers in one cell?)',
    ],
  ])('refuses %s as too long', (input, message) => {
    expect(refused(input)).toEqual({ reason: 'too_long', message });
  });

  it('reads ten digits starting with 0 or 1 as written, and leaves the area code to classifyCode', () => {
    expect(parsePhone('120-234-5678')).toMatchObject({ ok: true, digits: '1202345678', number: 1202345678 });
    expect(parsePhone('020-234-5678')).toMatchObject({ ok: true, digits: '0202345678', number: 202345678 });
  });
});

describe('parsePhone: other countries', () => {
  it.each([
    ['+44 20 7946 0958', '+44 (the United Kingdom)'],
    ['011 44 20 7946 0958', '+44 (the United Kingdom)'],
    ['00 44 20 7946 0958', '+44 (the United Kingdom)'],
    ['0044 20 7946 0958', '+44 (the United Kingdom)'],
    ['+33 1 23 45 67 89', '+33 (France)'],
    ['+52 55 1234 5678', '+52 (Mexico)'],
    ['+7 495 123-45-67', '+7 (Russia and Kazakhstan)'],
    ['+353 1 234 5678', '+353 (Ireland)'],
    ['+86 10 1234 5678', '+86 (China)'],
  ])('refuses %s, naming the country code', (input, who) => {
    expect(refused(input)).toEqual({
      reason: 'not_nanp',
      message: `Not a US number: "${input}" has country code ${who}; Scrub checks US numbers (+1) only`,
    });
  });

  it('says so when the country code is not assigned', () => {
    expect(refused('+28 123 456')).toEqual({
      reason: 'not_nanp',
      message:
        'Not a US number: "+28 123 456" starts with +281, not an assigned country code; Scrub checks US numbers (+1) only',
    });
  });

  it('never reads a + and ten digits as a US number, and says how to write one', () => {
    expect(refused('+2015550123')).toEqual({
      reason: 'not_nanp',
      message:
        'Not a US number: "+2015550123" has country code +20 (Egypt); Scrub checks US numbers (+1) only. If it is a US number, write it without the +, or as +1 201 555 0123',
    });
  });

  it('refuses a country code starting with 0', () => {
    expect(refused('+0 201 555 0123')).toEqual({
      reason: 'not_nanp',
      message: 'Not a US number: "+0 201 555 0123" has a country code starting with 0, which none does',
    });
  });
});

describe('parsePhone: the quick path for plain forms', () => {
  // A leading space sends an input down the general path: both must answer the same.
  it.each([
    '2015550123',
    '201-555-0123',
    '201.555.0123',
    '201 555 0123',
    '(201) 555-0123',
    '(201)555-0123',
    '12015550123',
    '1-201-555-0123',
    '1 (201) 555-0123',
    '+12015550123',
    '+1 201 555 0123',
    '+1-201.555 0123',
    '1201555012',
    '0201555012',
    '2015550123.0',
    '12015550123.00',
    '+12015550123.0',
    '1201555012.0',
    '(201)555-0123 x12',
    '+1 201 555 0123 ext. 4567',
    '1-201-555-0123 #9',
    '201.555.0123X1234567890',
  ])('%s', (input) => {
    expect(JSON.stringify(parsePhone(input))).toBe(JSON.stringify(parsePhone(` ${input}`)));
  });

  it('answers as the general path does over 200,000 generated spellings, near misses and junk', () => {
    const PLAIN = /^(\+?1[-. ]?)?(?:\((\d{3})\) ?|(\d{3})[-. ]?)(\d{3})[-. ]?(\d{4})$/;
    let seed = 0xc0ffee;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.floor((seed / 4_294_967_296) * n);
    };
    const pick = <T>(items: readonly T[]) => items[random(items.length)]!;
    const digits = (count: number) => Array.from({ length: count }, () => String(random(10))).join('');
    const spellings: ((d: string) => string)[] = [
      (d) => `+1 ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`,
      (d) => `(${d.slice(0, 3)})${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
      (d) => `1-${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => d,
      (d) => `${pick(['', '', '1', '+1', '+', '00', '011', '-'])}${d}.${'0'.repeat(random(3))}`,
    ];
    const marks = [' x', 'x', ' X', ' x.', ' ext', ' ext.', ' EXT ', ' #', ' extension ', ' x:', ' y', ''];
    const noise = [
      '0',
      '1',
      ' ',
      '\t',
      '\u00a0',
      '\u0663',
      '\uff13',
      '-',
      '.',
      '(',
      ')',
      '+',
      'x',
      'e',
      'A',
      'O',
      '#',
      ',',
      '"',
      "'",
      '=',
    ];
    const disagreements: string[] = [];
    let compared = 0;
    for (let i = 0; i < 200_000; i++) {
      const d = `${pick(['2', '9', '0', '1'])}${digits(8 + random(4))}`;
      const spelling = random(spellings.length);
      let text = spellings[spelling]!(d);
      if (spelling < 6 && random(2) === 0) text += `${pick(marks)}${digits(random(13))}`;
      if (random(4) === 0) {
        const at = random(text.length + 1);
        text = text.slice(0, at) + pick(noise) + text.slice(at + random(2));
      }
      if (PLAIN.test(text)) continue;
      compared++;
      // A leading space sends an input down the general path.
      if (JSON.stringify(parsePhone(text)) !== JSON.stringify(parsePhone(` ${text}`)))
        disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(100_000);
  }, 60_000); // about 4 s on a quiet 2-core machine; far more under a loaded one
});

describe('parsePhone: never guesses a digit', () => {
  // Deterministic, so a failure can be replayed.
  function* randomInputs(count: number): Generator<string> {
    const alphabet = '0123456789012345678901234567890123456789 -.()+xX#ABCOIL,\'"/E';
    let seed = 42;
    for (let i = 0; i < count; i++) {
      let text = '';
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      const length = seed % 24;
      for (let j = 0; j < length; j++) {
        seed = (seed * 1_103_515_245 + 12_345) >>> 0;
        text += alphabet[(seed >>> 8) % alphabet.length];
      }
      yield text;
    }
  }

  it('answers every input with ten digits taken from it in order, or a known reason', () => {
    const reasons = new Set<string>(PARSE_FAILURE_REASONS);
    for (const input of randomInputs(20_000)) {
      const result: ParseResult = parsePhone(input);
      if (!result.ok) {
        expect(reasons.has(result.reason), input).toBe(true);
        expect(result.message, input).toMatch(/^[A-Z]/);
        continue;
      }
      expect(result.digits, input).toMatch(/^\d{10}$/);
      expect(result.e164).toBe(`+1${result.digits}`);
      expect(result.number).toBe(Number(result.digits));
      if (result.notes.includes('letters_mapped') || result.notes.includes('scientific_notation_exact'))
        continue;
      // Without letters, the ten digits are the input's own digits, in order, none made up.
      const written = input.replace(/\D/g, '');
      expect(written, input).toContain(result.digits);
    }
  });
});
