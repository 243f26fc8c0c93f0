import { describe, expect, it } from 'vitest';
import { dayOf } from '../reassigned/disconnect-list.ts';
import { consentDayOf } from './consent-day.ts';

const read = (text: string) => {
  const buf = Buffer.from(`x,${text},y`);
  return consentDayOf(buf, 2, 2 + Buffer.byteLength(text));
};

describe('consentDayOf', () => {
  it('reads a day as dayOf does, over every day of 1900-2100 and the forms around it', () => {
    for (let day = dayOf('1900-01-01'); day <= dayOf('2100-12-31'); day++) {
      const text = new Date(day * 86_400_000).toISOString().slice(0, 10);
      expect(read(text)).toBe(day);
    }
    const others = [
      '2024-02-30',
      '2023-02-29',
      '2024-02-29',
      '2000-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-04-31',
      '0999-01-01',
      '2024/01/01',
      '2024-1-01',
      ' 2024-01-01',
      '"2024-01-01"',
      '1/2/2024',
      '12/31/2025',
      '',
      'soon',
      '2024-01-0x',
      '+024-01-01',
    ];
    for (const text of others) expect(read(text), text).toEqual(dayOf(text.replaceAll('"', '')));
  });
});
