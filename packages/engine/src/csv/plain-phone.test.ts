import { describe, expect, it } from 'vitest';
import { parsePhone } from '../parse-phone.ts';
import { plainPhone } from './plain-phone.ts';

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
