import { describe, expect, it } from 'vitest';
import { areaCodeInfo } from '../area-codes.ts';
import { ClassCode, classifyNumber } from '../classify.ts';
import type { SharedExchangeTable } from './exchange-table.ts';
import { SAMPLE_VERSION, sampleExchangeTable } from './sample.ts';

const C = ClassCode;

function bytesOf(shared: SharedExchangeTable): Buffer[] {
  return [shared.exchanges, shared.blocks, shared.numberStart, shared.numberLines, shared.numberAnswers].map(
    (buffer) => Buffer.from(new Uint8Array(buffer ?? new SharedArrayBuffer(0))),
  );
}

describe('sampleExchangeTable', () => {
  const table = sampleExchangeTable();

  it('says it is sample data', () => {
    expect(table.version).toBe(SAMPLE_VERSION);
    expect(table.version).toBe('sample-v1');
    expect(table.source).toBe('sample');
    expect(sampleExchangeTable(42).version).toBe('sample-v1-seed-42');
  });

  it('is the same, byte for byte, for the same seed, and differs for another', () => {
    const again = bytesOf(sampleExchangeTable().toShared());
    const first = bytesOf(table.toShared());
    for (const [i, bytes] of first.entries()) expect(bytes.equals(again[i]!)).toBe(true);
    const other = bytesOf(sampleExchangeTable(42).toShared());
    expect(first[0]!.equals(other[0]!)).toBe(false);
    expect(sampleExchangeTable(42).stats).toEqual(sampleExchangeTable(42).stats);
  });

  it('covers every exchange of every US geographic area code in service, and nothing else', () => {
    const areas = Array.from({ length: 800 }, (_, i) => areaCodeInfo(200 + i)).filter(
      (info) => info.status === 'geographic' && info.inService && info.country === 'US',
    );
    expect(areas.length).toBeGreaterThan(300);
    // Every slot 000-999 of a covered area code has an answer: 800 typed or not in service, and
    // 200 below 200, which no valid number reaches.
    expect(table.stats.exchanges).toBe(areas.length * 1000);
    expect(table.stats.notInService).toBe(areas.length * (200 + 3));
    expect(table.stats.unknown).toBe(0);
    expect(table.lineTypeCode(2042345678)).toBe(C.UNKNOWN_GEOGRAPHIC); // Canada: not covered
    expect(table.lineTypeCode(2732345678)).toBe(C.UNKNOWN_GEOGRAPHIC); // not in service yet
  });

  it('gives realistic shares of mobile, landline and VoIP, some blocks and some ported numbers', () => {
    const { mobile, landline, voip, blocks, numbers } = table.stats;
    const typed = mobile + landline + voip;
    expect(mobile / typed).toBeCloseTo(0.6, 1);
    expect(landline / typed).toBeCloseTo(0.3, 1);
    expect(voip / typed).toBeCloseTo(0.1, 1);
    expect(blocks / 10 / typed).toBeCloseTo(0.12, 1);
    expect(numbers).toBeGreaterThan(1000);
  });

  it('answers all three line types across the exchanges of one area code', () => {
    const answers = new Map<string, number>();
    for (let nxx = 200; nxx <= 999; nxx++) {
      const { lineType } = classifyNumber(201_000_0000 + nxx * 10_000 + 1234, table);
      answers.set(lineType, (answers.get(lineType) ?? 0) + 1);
    }
    expect([...answers.keys()].sort()).toEqual(['invalid', 'landline', 'mobile', 'voip']);
    expect(classifyNumber(2012345678, table).lineType).not.toBe('unknown_geographic');
  });

  it('calls only 958, 959 and 976 not in service, so no ordinary number is made invalid', () => {
    expect(classifyNumber(2019581234, table)).toMatchObject({
      lineType: 'invalid',
      invalidReason: 'exchange_not_in_service',
      message: 'Exchange 201-958 is not in service',
    });
    expect(classifyNumber(2129761234, table).invalidReason).toBe('exchange_not_in_service');
    for (let nxx = 200; nxx <= 999; nxx++) {
      if ([958, 959, 976].includes(nxx) || nxx % 100 === 11 || nxx === 950 || nxx === 555) continue;
      expect(classifyNumber(2120000000 + nxx * 10_000, table).invalidReason).toBeNull();
    }
  });

  it('builds fast enough for a server to build at start', () => {
    const start = performance.now();
    sampleExchangeTable(7);
    // 200 ms is the target on an idle machine (see the benchmark); tests share the machine.
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
