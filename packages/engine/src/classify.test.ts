import { describe, expect, it, vi } from 'vitest';
import { areaCodeInfo } from './area-codes.ts';
import {
  ClassCode,
  classificationOf,
  classifyCode,
  classifyNumber,
  type ExchangeData,
  FIRST_INVALID_CODE,
  invalidReasonOf,
  isInvalidCode,
  lineTypeOf,
  NUMBER_INVALID_REASONS,
  numberInvalidMessage,
} from './classify.ts';

/** A number in the given area code and exchange, with an ordinary line number. */
const number = (npa: number, nxx = 234, line = 5678) => npa * 10_000_000 + nxx * 10_000 + line;

describe('classifyNumber: area codes', () => {
  it.each([
    ['geographic in service', number(201), 'unknown_geographic', null],
    ['a live code libphonenumber rejects (861, Illinois)', number(861), 'unknown_geographic', null],
    ['a US territory (787, Puerto Rico)', number(787), 'unknown_geographic', null],
    ['toll free in service', number(800), 'toll_free', null],
    ['area code starting with 0', number(20), 'invalid', 'area_code_invalid'],
    ['area code starting with 1', number(123), 'invalid', 'area_code_invalid'],
    ['N11 service code as area code', number(411), 'invalid', 'area_code_n11'],
    ['N9X expansion code', number(295), 'invalid', 'area_code_expansion'],
    ['reserved by the industry (37X)', number(370), 'invalid', 'area_code_reserved'],
    ['set aside for toll free, not assigned (880)', number(880), 'invalid', 'area_code_reserved'],
    ['not assignable (950 carrier access)', number(950), 'invalid', 'area_code_not_assignable'],
    ['not assignable (988 crisis line)', number(988), 'invalid', 'area_code_not_assignable'],
    ['never assigned', number(200), 'invalid', 'area_code_unassigned'],
    ['geographic, assigned, not live yet (465)', number(465), 'invalid', 'area_code_not_in_service'],
    ['toll free, assigned, not live (822)', number(822), 'invalid', 'area_code_not_in_service'],
    ['directory assistance (555)', number(555), 'invalid', 'area_code_directory'],
    ['Canada (204)', number(204), 'invalid', 'area_code_outside_us'],
    ['the Caribbean (876, Jamaica)', number(876), 'invalid', 'area_code_outside_us'],
    ['premium rate (900)', number(900), 'invalid', 'premium_rate'],
    ['personal and machine-to-machine (5XX)', number(533), 'invalid', 'personal_service'],
    ['other non-geographic services (700)', number(700), 'invalid', 'non_geographic_service'],
    ['Canadian non-geographic (600)', number(600), 'invalid', 'non_geographic_service'],
  ])('%s', (_, n, lineType, invalidReason) => {
    expect(classifyNumber(n)).toMatchObject({ lineType, invalidReason });
  });

  it('names the area code, and the country for NANP codes outside the US, in the message', () => {
    expect(classifyNumber(number(123)).message).toBe(
      'Area code 123 does not exist: area codes start with a digit from 2 to 9',
    );
    expect(classifyNumber(number(20)).message).toBe(
      'Area code 020 does not exist: area codes start with a digit from 2 to 9',
    );
    expect(classifyNumber(number(465)).message).toBe('Area code 465 is assigned but not in service yet');
    expect(classifyNumber(number(204)).message).toBe(
      'Area code 204 is in Canada, outside the US: Scrub checks US numbers only',
    );
    expect(classifyNumber(number(876)).message).toBe(
      'Area code 876 is in Jamaica, outside the US: Scrub checks US numbers only',
    );
  });

  it('answers toll_free for exactly the toll-free codes in service', () => {
    for (const npa of [800, 833, 844, 855, 866, 877, 888]) {
      expect(classifyNumber(number(npa)), String(npa)).toEqual({
        lineType: 'toll_free',
        invalidReason: null,
        message: null,
      });
    }
  });

  it('agrees with the area-code table for every code 000-999', () => {
    for (let npa = 0; npa <= 999; npa++) {
      const info = npa >= 200 ? areaCodeInfo(npa) : null;
      const { lineType } = classifyNumber(number(npa));
      const valid = info?.inService && (info.status === 'toll_free' || info.country === 'US');
      expect(lineType !== 'invalid', String(npa)).toBe(Boolean(valid));
    }
  });
});

describe('classifyNumber: exchanges and line numbers', () => {
  it.each([
    ['exchange starting with 0', number(201, 55), 'exchange_invalid'],
    ['exchange starting with 1', number(201, 199), 'exchange_invalid'],
    ['N11 exchange 211', number(201, 211), 'exchange_n11'],
    ['N11 exchange 411', number(201, 411), 'exchange_n11'],
    ['N11 exchange 911', number(201, 911), 'exchange_n11'],
    ['carrier access exchange 950', number(201, 950), 'exchange_carrier_access'],
    ['fictional 555-0100', number(201, 555, 100), 'fictional_number'],
    ['fictional 555-0123', number(201, 555, 123), 'fictional_number'],
    ['fictional 555-0199', number(201, 555, 199), 'fictional_number'],
    ['directory assistance 555-1212', number(201, 555, 1212), 'exchange_555'],
    ['other 555 numbers, just outside the fictional range (555-0099)', number(201, 555, 99), 'exchange_555'],
    ['other 555 numbers, just outside the fictional range (555-0200)', number(201, 555, 200), 'exchange_555'],
    ['toll-free exchange starting with 0', number(800, 55), 'exchange_invalid'],
    ['toll-free exchange starting with 1', number(888, 123), 'exchange_invalid'],
  ])('%s', (_, n, invalidReason) => {
    expect(classifyNumber(n)).toMatchObject({ lineType: 'invalid', invalidReason });
  });

  it('leaves N11, 555 and 950 exchanges alone in toll-free codes, where they are ordinary', () => {
    for (const nxx of [411, 555, 950]) {
      expect(classifyNumber(number(800, nxx, 123)).lineType, String(nxx)).toBe('toll_free');
    }
  });

  it('accepts the exchanges around the ones it refuses', () => {
    for (const nxx of [200, 210, 212, 299, 554, 556, 949, 951, 999]) {
      expect(classifyNumber(number(201, nxx)).lineType, String(nxx)).toBe('unknown_geographic');
    }
  });

  it('names the exchange in the message', () => {
    expect(classifyNumber(number(201, 55)).message).toBe(
      'Exchange 055 does not exist: exchanges start with a digit from 2 to 9',
    );
    expect(classifyNumber(number(201, 411)).message).toBe(
      'Exchange 411 does not exist: N11 codes are dialled for services, never as exchanges',
    );
  });

  it('checks the area code before the exchange', () => {
    expect(classifyNumber(number(411, 411)).invalidReason).toBe('area_code_n11');
    expect(classifyNumber(number(204, 555, 123)).invalidReason).toBe('area_code_outside_us');
  });
});

describe('classifyCode', () => {
  it('refuses what is not a 10-digit integer', () => {
    for (const n of [-1, 2015550123.5, 10_000_000_000, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(classifyCode(n), String(n)).toBe(ClassCode.NOT_TEN_DIGITS);
    }
    expect(classifyNumber(-1)).toEqual({
      lineType: 'invalid',
      invalidReason: 'not_ten_digits',
      message: 'Not a 10-digit phone number: -1',
    });
  });

  it('reads the edges of the range', () => {
    expect(classifyCode(0)).toBe(ClassCode.AREA_CODE_INVALID);
    expect(classifyCode(1_999_999_999)).toBe(ClassCode.AREA_CODE_INVALID);
    expect(classifyCode(2_019_999_999)).toBe(ClassCode.UNKNOWN_GEOGRAPHIC);
    expect(classifyCode(9_999_999_999)).toBe(ClassCode.AREA_CODE_EXPANSION);
  });

  it('asks exchange data about valid geographic numbers only', () => {
    const lineTypeCode = vi.fn((n: number) => (n % 2 === 0 ? ClassCode.MOBILE : ClassCode.LANDLINE));
    const exchangeData: ExchangeData = { version: 'test', lineTypeCode };

    expect(classifyCode(number(201, 234, 5678), exchangeData)).toBe(ClassCode.MOBILE);
    expect(classifyCode(number(201, 234, 5679), exchangeData)).toBe(ClassCode.LANDLINE);
    expect(classifyCode(number(800), exchangeData)).toBe(ClassCode.TOLL_FREE);
    expect(classifyCode(number(201, 555, 123), exchangeData)).toBe(ClassCode.FICTIONAL_NUMBER);
    expect(classifyCode(number(204), exchangeData)).toBe(ClassCode.AREA_CODE_OUTSIDE_US);
    expect(lineTypeCode.mock.calls).toEqual([[number(201, 234, 5678)], [number(201, 234, 5679)]]);
  });

  it('passes on what exchange data answers, down to an exchange not in service', () => {
    const answers = [ClassCode.MOBILE, ClassCode.LANDLINE, ClassCode.VOIP, ClassCode.EXCHANGE_NOT_IN_SERVICE];
    const lineTypes = answers.map(
      (answer) => classifyNumber(number(201, 743), { version: 'test', lineTypeCode: () => answer }).lineType,
    );
    expect(lineTypes).toEqual(['mobile', 'landline', 'voip', 'invalid']);
    expect(classifyNumber(number(201, 743), { version: 'test', lineTypeCode: () => answers[3]! })).toEqual({
      lineType: 'invalid',
      invalidReason: 'exchange_not_in_service',
      message: 'Exchange 201-743 is not in service',
    });
  });
});

describe('codes, reasons and messages', () => {
  const codes = Object.values(ClassCode);

  it('keeps the integer codes stable', () => {
    expect(ClassCode).toEqual({
      UNKNOWN_GEOGRAPHIC: 0,
      MOBILE: 1,
      LANDLINE: 2,
      VOIP: 3,
      TOLL_FREE: 4,
      NOT_TEN_DIGITS: 8,
      AREA_CODE_INVALID: 9,
      AREA_CODE_N11: 10,
      AREA_CODE_DIRECTORY: 11,
      AREA_CODE_EXPANSION: 12,
      AREA_CODE_RESERVED: 13,
      AREA_CODE_NOT_ASSIGNABLE: 14,
      AREA_CODE_UNASSIGNED: 15,
      AREA_CODE_NOT_IN_SERVICE: 16,
      AREA_CODE_OUTSIDE_US: 17,
      PREMIUM_RATE: 18,
      PERSONAL_SERVICE: 19,
      NON_GEOGRAPHIC_SERVICE: 20,
      EXCHANGE_INVALID: 21,
      EXCHANGE_N11: 22,
      EXCHANGE_CARRIER_ACCESS: 23,
      EXCHANGE_555: 24,
      FICTIONAL_NUMBER: 25,
      EXCHANGE_NOT_IN_SERVICE: 26,
    });
  });

  it('has one reason for each invalid code and none for valid ones', () => {
    const invalid = codes.filter(isInvalidCode);
    expect(invalid.map(invalidReasonOf)).toEqual([...NUMBER_INVALID_REASONS]);
    expect(invalid.every((code) => lineTypeOf(code) === 'invalid')).toBe(true);
    expect(codes.filter((code) => code < FIRST_INVALID_CODE).map(lineTypeOf)).toEqual([
      'unknown_geographic',
      'mobile',
      'landline',
      'voip',
      'toll_free',
    ]);
  });

  it('writes a sentence for each reason that a spreadsheet would not run as a formula', () => {
    for (const reason of NUMBER_INVALID_REASONS) {
      expect(numberInvalidMessage(reason, number(204, 55)), reason).toMatch(/^[A-Z][^\n]+[a-z0-9]$/);
    }
  });

  it('builds the object from a code without classifying again', () => {
    expect(classificationOf(ClassCode.TOLL_FREE, number(800))).toEqual({
      lineType: 'toll_free',
      invalidReason: null,
      message: null,
    });
  });
});
