import { describe, expect, it } from 'vitest';
import { checkPhone } from './check-phone.ts';
import { ClassCode, classifyCode } from './classify.ts';
import { type Datasets, dataSourceOf, datasetVersions, VersionedRef } from './datasets.ts';
import { ExchangeTableBuilder } from './exchange/exchange-table.ts';
import { sampleExchangeTable } from './exchange/sample.ts';

const C = ClassCode;

function importedTable() {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, C.LANDLINE);
  return builder.build('co:2025-11-26,ocn:0123456789ab');
}

describe('VersionedRef', () => {
  it('swaps the whole snapshot at once; a reader holding the old one keeps consistent answers', () => {
    const ref = new VersionedRef<Datasets>({ exchange: sampleExchangeTable() });
    const before = ref.current();
    const number = 2012345678;
    const sampleAnswer = classifyCode(number, before.exchange);

    const replaced = ref.swap({ exchange: importedTable() });
    expect(replaced).toBe(before);
    expect(ref.generation).toBe(1);

    // The old snapshot still answers from the old table, whatever happens to the ref.
    expect(before.exchange?.version).toBe('sample-v1');
    expect(classifyCode(number, before.exchange)).toBe(sampleAnswer);
    expect(classifyCode(2017432345, before.exchange)).not.toBe(C.EXCHANGE_NOT_IN_SERVICE);
    // New readers see only the new one.
    const after = ref.current();
    expect(after.exchange?.version).toBe('co:2025-11-26,ocn:0123456789ab');
    expect(classifyCode(number, after.exchange)).toBe(C.LANDLINE);
    expect(classifyCode(2017432345, after.exchange)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
  });

  it('keeps snapshots immutable, and replaces one dataset while keeping the others', () => {
    const dnc = { version: 'dnc-2025-11-01' };
    const ref = new VersionedRef<Datasets>({ exchange: sampleExchangeTable(), dnc });
    const before = ref.current();
    expect(Object.isFrozen(before)).toBe(true);
    expect(() => {
      (before as Record<string, unknown>).exchange = undefined;
    }).toThrow(TypeError);

    ref.update({ exchange: importedTable() });
    expect(ref.current().dnc).toBe(dnc);
    expect(ref.current().exchange?.source).toBe('imported');
    expect(before.exchange?.source).toBe('sample');
    expect(ref.generation).toBe(1);
  });

  it('names the version of each dataset, and whether any is sample data', () => {
    const sample: Datasets = { exchange: sampleExchangeTable(), dnc: { version: 'dnc-1' } };
    expect(datasetVersions(sample)).toEqual({ exchange: 'sample-v1', dnc: 'dnc-1' });
    expect(dataSourceOf(sample)).toBe('sample');
    const imported: Datasets = { exchange: importedTable(), dnc: undefined };
    expect(datasetVersions(imported)).toEqual({ exchange: 'co:2025-11-26,ocn:0123456789ab' });
    expect(dataSourceOf(imported)).toBe('imported');
    expect(dataSourceOf({ exchange: importedTable(), dnc: { version: 'x', source: 'sample' } })).toBe(
      'sample',
    );
  });
});

describe('checkPhone with datasets', () => {
  it('answers from the snapshot and says which versions produced the answer', () => {
    const ref = new VersionedRef<Datasets>({ exchange: sampleExchangeTable() });
    const answer = checkPhone('(201) 234-5678', ref.current());
    expect(answer).toMatchObject({
      e164: '+12012345678',
      lineType: expect.stringMatching(/^(mobile|landline|voip)$/),
      datasetVersions: { nanpa_npa: '2025-11-26', exchange: 'sample-v1' },
      dataSource: 'sample',
    });

    ref.swap({ exchange: importedTable() });
    expect(checkPhone('(201) 234-5678', ref.current())).toMatchObject({
      lineType: 'landline',
      datasetVersions: { nanpa_npa: '2025-11-26', exchange: 'co:2025-11-26,ocn:0123456789ab' },
      dataSource: 'imported',
    });
    expect(checkPhone('201-743-2345', ref.current())).toMatchObject({
      lineType: 'invalid',
      invalidReason: 'exchange_not_in_service',
      message: 'Exchange 201-743 is not in service',
    });
  });

  it('reports versions for unreadable input too, and adds nothing when given bare exchange data', () => {
    expect(checkPhone('N/A', { exchange: sampleExchangeTable() })).toMatchObject({
      lineType: 'invalid',
      invalidReason: 'no_digits',
      dataSource: 'sample',
    });
    const bare = checkPhone('(201) 234-5678', importedTable());
    expect(bare.lineType).toBe('landline');
    expect(bare).not.toHaveProperty('datasetVersions');
    expect(bare).not.toHaveProperty('dataSource');
    expect(checkPhone('(201) 234-5678', {})).toMatchObject({
      lineType: 'unknown_geographic',
      datasetVersions: { nanpa_npa: '2025-11-26' },
    });
  });
});
