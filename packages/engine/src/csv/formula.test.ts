import { describe, expect, it } from 'vitest';
import { isFormulaCell, neutraliseFormula } from './formula.ts';

const formulas = ['=1+2', '=HYPERLINK("http://x")', '@SUM(A1)', '+cmd|calc', '-2+A1', '\tx', '\rx', '\nx'];
const data = ['+1 201 555 0123', '+1 (201) 555-0123', '-42.50', '-', '+', 'a=b', '2015550123', '', 'Zoë'];

describe('isFormulaCell', () => {
  it.each(formulas)('takes %j for a formula', (cell) => {
    expect(isFormulaCell(cell)).toBe(true);
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
  });

  it.each(data)('takes %j for data', (cell) => {
    expect(isFormulaCell(cell)).toBe(false);
    expect(neutraliseFormula(cell)).toBe(cell);
  });

  it('answers alike for a string and its UTF-8 bytes, within bounds', () => {
    for (const cell of [...formulas, ...data, '+1 201\u00a0555 0123', '-zoë']) {
      const bytes = new TextEncoder().encode(`,${cell},`);
      expect(isFormulaCell(bytes, 1, bytes.length - 1), cell).toBe(isFormulaCell(cell));
    }
  });
});
