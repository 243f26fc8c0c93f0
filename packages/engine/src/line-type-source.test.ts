import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkPhone } from './check-phone.ts';
import { ClassCode } from './classify.ts';
import { collector } from './csv/csv-fixtures.ts';
import { scrubCsv } from './csv/scrub-csv.ts';
import { ExchangeTableBuilder } from './exchange/exchange-table.ts';
import { sampleExchangeTable } from './exchange/sample.ts';

// Exchange 201-234 is landline; its block 201-234-5 mobile; one number in that block ported to VoIP.
function imported() {
  const builder = new ExchangeTableBuilder();
  builder.setExchange(201_234, ClassCode.LANDLINE);
  builder.setBlock(2_012_345, ClassCode.MOBILE);
  builder.setNumber(2_012_345_678, ClassCode.VOIP);
  builder.setExchange(201_345, ClassCode.EXCHANGE_NOT_IN_SERVICE);
  return builder.build('test-1');
}

describe('line type source', () => {
  const table = imported();

  it('names the level of the imported tables that answered: number override, thousands block, exchange', () => {
    expect(checkPhone('201-234-5678', table)).toMatchObject({
      lineType: 'voip',
      lineTypeSource: 'number_override',
    });
    expect(checkPhone('201-234-5679', table)).toMatchObject({
      lineType: 'mobile',
      lineTypeSource: 'thousands_block',
    });
    expect(checkPhone('201-234-1234', table)).toMatchObject({
      lineType: 'landline',
      lineTypeSource: 'exchange',
    });
    // Not in service by the exchange data: an exchange-level answer too.
    expect(checkPhone('201-345-1234', table)).toMatchObject({
      lineType: 'invalid',
      invalidReason: 'exchange_not_in_service',
      lineTypeSource: 'exchange',
    });
  });

  it('says sample for generated data, numbering_plan for toll free, and null where nothing gave a line type', () => {
    expect(checkPhone('201-234-5678', sampleExchangeTable()).lineTypeSource).toBe('sample');
    expect(checkPhone('1-800-356-9377', table).lineTypeSource).toBe('numbering_plan');
    expect(checkPhone('201-555-0123', table)).toMatchObject({ lineType: 'invalid', lineTypeSource: null });
    expect(checkPhone('n/a', table)).toMatchObject({ lineType: 'invalid', lineTypeSource: null });
    // No exchange data: the line type is unknown, and nothing answered it.
    expect(checkPhone('201-234-5678')).toMatchObject({
      lineType: 'unknown_geographic',
      lineTypeSource: null,
    });
  });

  it('adds a Line Type Source column to a result file only when asked', async () => {
    const input =
      'Name,Phone\nAnn,201-234-5678\nBob,201-234-5679\nCy,201-234-1234\nDee,800-356-9377\nEve,201-555-0123\n';
    const scrub = async (columns?: ('line_type_source' | 'timezone')[]) => {
      const output = collector();
      await scrubCsv(Readable.from([Buffer.from(input)]), output, {
        phoneColumn: 'Phone',
        exchange: table,
        columns,
      });
      return output.text();
    };
    expect(await scrub(['line_type_source', 'timezone'])).toBe(
      [
        'Name,Phone,Line Type,DNC,Time Zone,Line Type Source',
        'Ann,201-234-5678,voip,unchecked,America/New_York,number_override',
        'Bob,201-234-5679,mobile,unchecked,America/New_York,thousands_block',
        'Cy,201-234-1234,landline,unchecked,America/New_York,exchange',
        'Dee,800-356-9377,toll_free,unchecked,,numbering_plan',
        'Eve,201-555-0123,invalid,,,',
        '',
      ].join('\n'),
    );
    // Without it the file is as it always was: the seed's Line Type and DNC.
    expect((await scrub()).split('\n')[0]).toBe('Name,Phone,Line Type,DNC');
  });
});
