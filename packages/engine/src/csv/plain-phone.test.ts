import { describe, expect, it } from 'vitest';
import { parsePhone } from '../parse-phone.ts';
import { plainPhone, quickPhone } from './plain-phone.ts';

const read = (text: string) => {
  const bytes = Buffer.from(`,${text},`);
  return plainPhone(bytes, 1, bytes.length - 1);
};

describe('plainPhone', () => {
  it.each([
    ['2015550123', 2015550123],
    ['201-555-0123', 2015550123],
    ['201.555.0123', 2015550123],
    ['201 555 0123', 2015550123],
    ['(201) 555-0123', 2015550123],
    ['(201)555-0123', 2015550123],
    ['+1 201 555 0123', 2015550123],
    ['+1(201) 555-0123', 2015550123],
    ['+12015550123', 2015550123],
    ['1-201-555-0123', 2015550123],
    ['12015550123', 2015550123],
    // PLAIN takes the 1 as the area code's first digit when the rest is too short for a country code.
    ['1201555012', 1201555012],
  ])('reads %s as parsePhone does', (text, number) => {
    expect(read(text)).toBe(number);
    expect(parsePhone(text)).toMatchObject({ ok: true, number });
  });

  it.each([
    '',
    '2015550123.0',
    '201-555-0123 x45',
    ' 2015550123',
    '2015550123 ',
    '+2015550123',
    '(201)-555-0123',
    '201--555-0123',
    '201555012',
    '201555012345',
    '"2015550123"',
  ])('leaves %j to parsePhone', (text) => {
    expect(read(text)).toBe(-1);
  });

  it('never stops short of the cell or reads past it', () => {
    const bytes = Buffer.from('2015550123456');
    expect(plainPhone(bytes, 0, 10)).toBe(2015550123);
    expect(plainPhone(bytes, 0, 9)).toBe(-1);
    expect(plainPhone(bytes, 3, 13)).toBe(5550123456);
  });

  it('reads exactly the plain forms, and as parsePhone does, over 100,000 near-plain strings', () => {
    // parsePhone's first regular expression, the grammar plainPhone follows.
    const PLAIN = /^(\+?1[-. ]?)?(?:\((\d{3})\) ?|(\d{3})[-. ]?)(\d{3})[-. ]?(\d{4})$/;
    let seed = 12345;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.floor((seed / 4_294_967_296) * n);
    };
    const pick = (items: readonly string[]) => items[random(items.length)]!;
    const digits = (count: number) => Array.from({ length: count }, () => String(random(10))).join('');
    const separators = ['', '', '-', '.', ' ', '  ', '/', '--'];
    let plain = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const area =
        random(3) === 0 ? `(${digits(3)})${pick(['', ' ', '-'])}` : `${digits(3)}${pick(separators)}`;
      let text = `${pick(['', '', '1', '+1', '1-', '+1 ', '+', '11', '+2'])}${area}${digits(3)}${pick(separators)}${digits(4)}`;
      // Now and then one character more, less or changed.
      const at = random(text.length + 1);
      const change = random(6);
      if (change === 0) text = text.slice(0, at) + pick(['1', '0', '-', ' ', 'x', ')']) + text.slice(at);
      else if (change === 1) text = text.slice(0, at) + text.slice(at + 1);
      const number = read(text);
      if (number !== -1) plain++;
      const parsed = parsePhone(text);
      const agrees =
        number === -1 ? !PLAIN.test(text) : PLAIN.test(text) && parsed.ok && parsed.number === number;
      if (!agrees) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
    expect(plain).toBeGreaterThan(15_000);
  });
});

describe('quickPhone', () => {
  const quick = (text: string) => {
    const bytes = Buffer.from(`,${text},`);
    return quickPhone(bytes, 1, bytes.length - 1);
  };

  it.each([
    ['2015550123.0', 2015550123],
    ['2015550123.00', 2015550123],
    ['12015550123.0', 2015550123],
    ['+12015550123.0', 2015550123],
    ['1201555012.0', 1201555012],
    ['(201)555-0123 x12', 2015550123],
    ['201-555-0123 x45', 2015550123],
    ['201.555.0123x45', 2015550123],
    ['+1 201 555 0123 X 9', 2015550123],
    ['1-201-555-0123 x.45', 2015550123],
    ['(201) 555-0123  ext. 4567', 2015550123],
    ['2015550123 EXT45', 2015550123],
    ['2015550123 #45', 2015550123],
    ['2015550123 x1234567890', 2015550123],
    ['2015550123 x10', 2015550123],
    // The plain forms, as plainPhone reads them.
    ['+1 201 555 0123', 2015550123],
    ['201.555.0123', 2015550123],
  ])('reads %s as parsePhone does', (text, number) => {
    expect(quick(text)).toBe(number);
    expect(parsePhone(text)).toMatchObject({ ok: true, number });
  });

  it.each([
    // parsePhone refuses these, or reads them by a rule quickPhone leaves to it.
    '+2015550123.0',
    '0015550123.0',
    '0115550123.0',
    '2015550123.5',
    '2015550123.',
    '201555012.0',
    '-2015550123.0',
    '2015550123,0',
    ' 2015550123.0',
    '2015550123.0 ',
    `2015550123.${'0'.repeat(250)}`,
    '(011) 555-0123 x12',
    '0015550123 x12',
    '201-555-0123 x12345678901',
    '201-555-0123 x',
    '201-555-0123 ext',
    '201-555-0123 extension 45',
    '201-555-0123 x:45',
    '201-555-0123 y45',
    '201-555-012 x45',
    '201-555-0123-x45',
    '2015550123 x45 ',
    ' 2015550123 x45',
    `2015550123${' '.repeat(250)}x45`,
  ])('leaves %j to parsePhone', (text) => {
    expect(quick(text)).toBe(-1);
  });

  it('never reads a number parsePhone would not give, over 300,000 generated cells', () => {
    let seed = 0x5eed;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.floor((seed / 4_294_967_296) * n);
    };
    const pick = <T>(items: readonly T[]) => items[random(items.length)]!;
    const digits = (count: number) => Array.from({ length: count }, () => String(random(10))).join('');
    // Mostly numbers that start as area codes do; now and then 0 or 1 first.
    const national = () => `${pick(['2', '9', '5', '0', '1'])}${digits(9)}`;
    const spellings: ((d: string) => string)[] = [
      (d) => `+1 ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`,
      (d) => `(${d.slice(0, 3)})${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
      (d) => `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => `1-${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
      (d) => d,
      (d) => `${pick(['', '', '1', '+1', '+', '00', '011', '-'])}${d}.${'0'.repeat(random(3))}`,
    ];
    const marks = [
      ' x',
      'x',
      ' X',
      ' x.',
      'x. ',
      ' ext',
      ' ext.',
      ' EXT ',
      ' Ext. ',
      ' #',
      '#.',
      ' extension ',
      ' extn',
      ' x:',
      ' x-',
      '  x  ',
      ' y',
      ' e',
      '',
    ];
    // Characters a cell may hold by mistake or on purpose: Unicode digits and spaces, letters, quotes.
    const noise = [
      '0',
      '1',
      '9',
      ' ',
      '  ',
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
      'X',
      'e',
      'E',
      'A',
      'O',
      'l',
      '#',
      ',',
      '"',
      "'",
      '=',
      ':',
      '/',
    ];
    const hits = { float: 0, extension: 0 };
    const disagreements: string[] = [];
    for (let i = 0; i < 300_000; i++) {
      const d = random(10) === 0 ? `${national()}${digits(random(3))}`.slice(0, 8 + random(5)) : national();
      const spelling = random(spellings.length);
      let text = spellings[spelling]!(d);
      if (spelling < 7 && random(2) === 0) text += `${pick(marks)}${digits(random(13))}`;
      const changes = random(4) === 0 ? 1 + random(2) : 0;
      for (let k = 0; k < changes; k++) {
        const at = random(text.length + 1);
        const change = random(3);
        if (change === 0) text = text.slice(0, at) + pick(noise) + text.slice(at);
        else if (change === 1) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + pick(noise) + text.slice(at + 1);
      }
      const number = quick(text);
      if (number === -1) continue;
      const parsed = parsePhone(text);
      if (!parsed.ok || parsed.number !== number) disagreements.push(text);
      else if (parsed.notes.includes('spreadsheet_float')) hits.float++;
      else if (parsed.extension !== undefined) hits.extension++;
    }
    expect(disagreements).toEqual([]);
    // Most cells were read here, not left to parsePhone: the test compares something.
    expect(hits.float).toBeGreaterThan(5_000);
    expect(hits.extension).toBeGreaterThan(30_000);
  });

  it('reads nothing from an empty cell, junk, or other Unicode', () => {
    for (const text of [
      '',
      'n/a',
      '555-1234',
      '2.01555E+09',
      '+44 20 7946 0958',
      'call office',
      '２０１５５５０１２３.0',
      '201-555-0123 x\u0663',
    ]) {
      expect(quick(text), text).toBe(-1);
    }
  });
});
