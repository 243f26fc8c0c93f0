import { describe, expect, it } from 'vitest';
import { checkPhone } from './check-phone.ts';
import { ClassCode, type ExchangeData } from './classify.ts';
import { DncListBuilder } from './dnc/builder.ts';
import { DncSet } from './dnc/set.ts';

describe('checkPhone', () => {
  it('answers a valid geographic number, its line type left to exchange data', () => {
    expect(checkPhone('(212) 736-5000')).toEqual({
      input: '(212) 736-5000',
      e164: '+12127365000',
      lineType: 'unknown_geographic',
      invalidReason: null,
      message: null,
      // No exchange data: nothing gave the number a line type.
      lineTypeSource: null,
      extension: null,
      notes: [],
    });
  });

  it('answers the line type exchange data gives', () => {
    const exchangeData: ExchangeData = { version: 'test', lineTypeCode: () => ClassCode.MOBILE };
    expect(checkPhone('212-736-5000', exchangeData)).toMatchObject({
      lineType: 'mobile',
      invalidReason: null,
      lineTypeSource: 'exchange',
    });
  });

  it('answers toll free with the extension and what the parser did', () => {
    expect(checkPhone('1-800-FLOWERS ext. 12')).toEqual({
      input: '1-800-FLOWERS ext. 12',
      e164: '+18003569377',
      lineType: 'toll_free',
      invalidReason: null,
      message: null,
      lineTypeSource: 'numbering_plan',
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
      lineTypeSource: null,
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
      lineTypeSource: null,
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

  describe('with DNC lists', () => {
    const list = (name: string, numbers: number[]) => {
      const builder = new DncListBuilder(name);
      for (const number of numbers) builder.add(number);
      return builder.build('v1');
    };
    const stale: ExchangeData = {
      version: 'stale',
      lineTypeCode: (number) =>
        Math.floor(number / 10_000) === 201_999 ? ClassCode.EXCHANGE_NOT_IN_SERVICE : ClassCode.MOBILE,
    };

    it('answers null, never 0, when no list covering the number is loaded', () => {
      expect(checkPhone('2012345678', stale, { set: new DncSet() })).toMatchObject({
        lineType: 'mobile',
        dnc: null,
        dncSources: [],
        dncListsChecked: [],
      });
      const texas = new DncSet([list('state:TX', [])]);
      expect(checkPhone('2012345678', stale, { set: texas })).toMatchObject({
        dnc: null,
        dncListsChecked: [],
      });
      expect(checkPhone('5127360100', stale, { set: texas })).toMatchObject({
        dnc: 0,
        dncListsChecked: ['state:TX'],
      });
    });

    it('names the lists consulted: those covering the number and those holding it', () => {
      const set = new DncSet([
        list('federal', [2012345678]),
        list('state:TX', [2012345678]),
        list('state:NJ', []),
      ]);
      expect(checkPhone('2012345678', stale, { set })).toMatchObject({
        dnc: 1,
        dncSources: ['federal', 'state:TX'],
        dncListsChecked: ['federal', 'state:TX', 'state:NJ'],
      });
      expect(checkPhone('2012345679', stale, { set })).toMatchObject({
        dnc: 0,
        dncSources: [],
        dncListsChecked: ['federal', 'state:NJ'],
      });
      expect(checkPhone('2012345679', stale, { set, mask: 0b100 })).toMatchObject({
        dnc: 0,
        dncListsChecked: ['state:NJ'],
      });
    });

    it('answers unchecked, never clean, where only a stale list covers the number, and still flags what it holds', () => {
      const set = new DncSet([list('federal', [2012345678]), list('state:TX', [])], { stale: ['federal'] });
      expect(checkPhone('2012345678', stale, { set })).toMatchObject({
        dnc: 1,
        dncSources: ['federal'],
        dncListsChecked: ['federal'],
        dncListsCovering: ['federal'],
      });
      expect(checkPhone('2012345679', stale, { set })).toMatchObject({
        dnc: null,
        dncListsChecked: [],
        dncListsCovering: ['federal'],
      });
      // A fresh state list still answers for its own area codes.
      expect(checkPhone('5127360100', stale, { set })).toMatchObject({
        dnc: 0,
        dncListsChecked: ['state:TX'],
        dncListsCovering: ['federal', 'state:TX'],
      });
    });

    it('answers a listed number the exchange data calls not in service: unknown line type, with the reason, DNC 1', () => {
      const set = new DncSet([list('federal', [2019990001])]);
      expect(checkPhone('201-999-0001', stale, { set })).toMatchObject({
        lineType: 'unknown_geographic',
        invalidReason: 'exchange_not_in_service',
        message: expect.stringMatching(
          /^Exchange 201-999 is not in service in the exchange data, but a do-not-call list holds/,
        ),
        dnc: 1,
        dncSources: ['federal'],
      });
      expect(checkPhone('201-999-0002', stale, { set })).toMatchObject({
        lineType: 'invalid',
        invalidReason: 'exchange_not_in_service',
        dnc: null,
        dncSources: [],
        dncListsChecked: [],
      });
      expect(checkPhone('n/a', stale, { set })).toMatchObject({
        lineType: 'invalid',
        dnc: null,
        dncListsChecked: [],
      });
    });
  });
});
