import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ClassCode, classifyCode, classifyNumber } from '../classify.ts';
import { ExchangeTable, ExchangeTableBuilder } from './exchange-table.ts';

const C = ClassCode;

/** The story of exchange-fixtures.ts, built by hand. */
function storyTable(): ExchangeTable {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, C.MOBILE);
  builder.setExchange(201235, C.LANDLINE);
  builder.setExchange(201236, C.VOIP);
  builder.setExchange(201238, C.EXCHANGE_NOT_IN_SERVICE);
  builder.setBlock(2012365, C.MOBILE);
  builder.setBlock(2012366, C.LANDLINE);
  builder.setBlock(2012349, C.UNKNOWN_GEOGRAPHIC);
  builder.setNumber(2012365000, C.LANDLINE);
  builder.setNumber(2012340001, C.VOIP);
  return builder.build('test-1');
}

describe('ExchangeTable', () => {
  it('answers a number from its number override, else its block, else its exchange', () => {
    const table = storyTable();
    expect(table.lineTypeCode(2012361234)).toBe(C.VOIP); // exchange
    expect(table.lineTypeCode(2012365123)).toBe(C.MOBILE); // block over exchange
    expect(table.lineTypeCode(2012366999)).toBe(C.LANDLINE);
    expect(table.lineTypeCode(2012365000)).toBe(C.LANDLINE); // number over block
    expect(table.lineTypeCode(2012365001)).toBe(C.MOBILE);
    expect(table.lineTypeCode(2012340001)).toBe(C.VOIP); // number over exchange
    expect(table.lineTypeCode(2012340002)).toBe(C.MOBILE);
    expect(table.lineTypeCode(2012349000)).toBe(C.UNKNOWN_GEOGRAPHIC); // a block's unknown wins too
  });

  it('answers not in service for unlisted exchanges of covered area codes only', () => {
    const table = storyTable();
    expect(table.lineTypeCode(2017432345)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
    expect(table.lineTypeCode(2012381234)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
    expect(table.lineTypeCode(9732345678)).toBe(C.UNKNOWN_GEOGRAPHIC);
  });

  it('makes classifyCode answer an unassigned exchange invalid, with its reason', () => {
    const table = storyTable();
    expect(classifyNumber(2017432345, table)).toEqual({
      lineType: 'invalid',
      invalidReason: 'exchange_not_in_service',
      message: 'Exchange 201-743 is not in service',
    });
    expect(classifyNumber(2012365123, table).lineType).toBe('mobile');
    // NANP rules come first: exchange data is never asked about 555 or N11.
    expect(classifyCode(2015550123, table)).toBe(C.FICTIONAL_NUMBER);
    expect(classifyCode(2014111234, table)).toBe(C.EXCHANGE_N11);
  });

  it('counts what it holds and the bytes it takes', () => {
    const table = storyTable();
    expect(table.version).toBe('test-1');
    expect(table.source).toBe('imported');
    expect(table.stats).toEqual({
      exchanges: 1000, // every slot of 201, 000 to 999
      mobile: 1,
      landline: 1,
      voip: 1,
      unknown: 0,
      notInService: 997,
      blocks: 3,
      numbers: 2,
    });
    expect(table.memory()).toEqual({
      exchanges: 1_000_000,
      blocks: 10_000_000,
      numbers: 4_000_004 + 2 * 3,
      total: 15_000_010,
    });
    const plain = new ExchangeTableBuilder();
    plain.setExchange(201234, C.MOBILE);
    expect(plain.build('plain').memory()).toEqual({
      exchanges: 1_000_000,
      blocks: 0,
      numbers: 0,
      total: 1_000_000,
    });
  });

  it('keeps the last answer given for an exchange, block or number', () => {
    const builder = new ExchangeTableBuilder();
    builder.setExchange(201234, C.MOBILE);
    builder.setBlock(2012345, C.LANDLINE);
    builder.setExchange(201234, C.VOIP); // keeps the block
    builder.setBlock(2012345, C.VOIP);
    builder.setNumber(2012345678, C.MOBILE);
    builder.setNumber(2012345678, C.LANDLINE);
    const table = builder.build('last');
    expect(table.lineTypeCode(2012340000)).toBe(C.VOIP);
    expect(table.lineTypeCode(2012345000)).toBe(C.VOIP);
    expect(table.lineTypeCode(2012345678)).toBe(C.LANDLINE);
    expect(table.stats.blocks).toBe(1);
    expect(table.stats.numbers).toBe(1);
  });

  it('finds every overridden number among many, given in any order and repeated', () => {
    const builder = new ExchangeTableBuilder();
    const expected = new Map<number, number>();
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 4_294_967_296;
    };
    const answers = [C.MOBILE, C.LANDLINE, C.VOIP, C.UNKNOWN_GEOGRAPHIC, C.EXCHANGE_NOT_IN_SERVICE] as const;
    for (let i = 0; i < 20_000; i++) {
      // Few exchanges, so that exchanges hold many numbers and numbers repeat.
      const number = 2_012_340_000 + Math.floor(random() * 30) * 10_000 + Math.floor(random() * 10_000);
      const answer = answers[Math.floor(random() * answers.length)]!;
      builder.setNumber(number, answer);
      expected.set(number, answer);
    }
    const table = builder.build('many');
    expect(table.stats.numbers).toBe(expected.size);
    for (const [number, answer] of expected) expect(table.lineTypeCode(number)).toBe(answer);
    for (let number = 2_012_340_000; number < 2_012_640_000; number += 7) {
      expect(table.lineTypeCode(number)).toBe(expected.get(number) ?? C.UNKNOWN_GEOGRAPHIC);
    }
  });

  it('refuses keys and answers out of range, and building twice', () => {
    const builder = new ExchangeTableBuilder();
    expect(() => builder.setExchange(1_000_000, C.MOBILE)).toThrow(RangeError);
    expect(() => builder.setExchange(201234.5, C.MOBILE)).toThrow(RangeError);
    expect(() => builder.setBlock(-1, C.MOBILE)).toThrow(RangeError);
    expect(() => builder.setNumber(10_000_000_000, C.MOBILE)).toThrow(RangeError);
    expect(() => builder.setExchange(201234, C.TOLL_FREE as never)).toThrow(/not an exchange answer/);
    expect(() => builder.coverArea(1000)).toThrow(RangeError);
    builder.build('once');
    expect(() => builder.build('twice')).toThrow(/already built/);
    expect(() => builder.setExchange(201234, C.MOBILE)).toThrow(/already built/);
  });

  it('goes round through its shared form without copying', () => {
    const table = storyTable();
    const shared = table.toShared();
    expect(shared.exchanges).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.blocks).toBeInstanceOf(SharedArrayBuffer);
    const copy = ExchangeTable.fromShared(structuredClone(shared));
    for (const number of [2012361234, 2012365123, 2012365000, 2017432345, 9732345678]) {
      expect(copy.lineTypeCode(number)).toBe(table.lineTypeCode(number));
    }
    // structuredClone keeps a SharedArrayBuffer shared: a write through one shows in the other.
    new Uint8Array(structuredClone(shared).exchanges)[973234] = C.LANDLINE;
    expect(table.lineTypeCode(9732345678)).toBe(C.LANDLINE);
    expect(() => ExchangeTable.fromShared({ ...shared, exchanges: new SharedArrayBuffer(10) })).toThrow(
      RangeError,
    );
    expect(() => ExchangeTable.fromShared({ ...shared, format: 'other' as never })).toThrow(TypeError);
  });

  it('is read by a worker thread from the same memory, with the same answers', async () => {
    const table = storyTable();
    const shared = table.toShared();
    const worker = new Worker(new URL('./table-worker.fixture.ts', import.meta.url), { workerData: shared });
    const ask = (numbers: number[]) =>
      new Promise<{ version: string; source: string; answers: number[] }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage(numbers);
      });
    try {
      const numbers = [2012361234, 2012365123, 2012365000, 2012340001, 2017432345, 9732345678, 2015550123];
      const reply = await ask(numbers);
      expect(reply.version).toBe('test-1');
      expect(reply.source).toBe('imported');
      expect(reply.answers).toEqual(numbers.map((number) => classifyCode(number, table)));
      // Not a copy: a byte written here is read there.
      new Uint8Array(shared.exchanges)[973234] = C.VOIP;
      expect((await ask([9732345678])).answers).toEqual([C.VOIP]);
    } finally {
      await worker.terminate();
    }
  });
});
