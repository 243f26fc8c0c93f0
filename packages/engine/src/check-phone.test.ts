import { describe, expect, it } from 'vitest';
import { checkPhone } from './check-phone.ts';
import { ClassCode, type ExchangeData } from './classify.ts';

describe('checkPhone', () => {
  it('answers a valid geographic number, its line type left to exchange data', () => {
    expect(checkPhone('(212) 736-5000')).toEqual({
      input: '(212) 736-5000',
      e164: '+12127365000',
      lineType: 'unknown_geographic',
      invalidReason: null,
      message: null,
      extension: null,
      notes: [],
    });
  });

  it('answers the line type exchange data gives', () => {
    const exchangeData: ExchangeData = { version: 'test', lineTypeCode: () => ClassCode.MOBILE };
    expect(checkPhone('212-736-5000', exchangeData)).toMatchObject({
      lineType: 'mobile',
      invalidReason: null,
    });
  });

  it('answers toll free with the extension and what the parser did', () => {
    expect(checkPhone('1-800-FLOWERS ext. 12')).toEqual({
      input: '1-800-FLOWERS ext. 12',
      e164: '+18003569377',
      lineType: 'toll_free',
      invalidReason: null,
      message: null,
      extension: '12',
      notes: ['extension_removed', 'country_code_removed', 'letters_mapped'],
    });
  });

  it('answers invalid with the reason when the input cannot be read', () => {
    expect(checkPhone('2.01555E+09')).toEqual({
      input: '2.01555E+09',
      e164: null,
      lineType: 'invalid',
      invalidReason: 'scientific_notation',
      message:
        'Scientific notation "2.01555E+09" keeps only 6 significant digits; the rest were lost. Format the column as text and export it again',
      extension: null,
      notes: [],
    });
    expect(checkPhone('+44 20 7946 0958')).toMatchObject({ e164: null, invalidReason: 'not_nanp' });
  });

  it('answers invalid with the reason when the number does not exist, keeping its E.164 form', () => {
    expect(checkPhone('+1 201 555 0123 x45')).toEqual({
      input: '+1 201 555 0123 x45',
      e164: '+12015550123',
      lineType: 'invalid',
      invalidReason: 'fictional_number',
      message: 'Numbers 555-0100 to 555-0199 are reserved for fiction and examples in every area code',
      extension: '45',
      notes: ['extension_removed', 'country_code_removed'],
    });
    expect(checkPhone('(204) 987-1234')).toMatchObject({
      e164: '+12049871234',
      invalidReason: 'area_code_outside_us',
    });
    expect(checkPhone('0201555012')).toMatchObject({
      e164: '+10201555012',
      invalidReason: 'area_code_invalid',
    });
  });
});
