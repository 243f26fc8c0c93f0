import { areaCodeInfo } from '../area-codes.ts';
import { ClassCode, type ExchangeAnswer } from '../classify.ts';
import { type ExchangeTable, ExchangeTableBuilder } from './exchange-table.ts';
import type { LineTypeCode } from './line-types.ts';

export const SAMPLE_VERSION = 'sample-v1';
export const DEFAULT_SAMPLE_SEED = 1;

// Shares of exchanges by line type, about the mix of numbers in US contact lists today.
const MOBILE_SHARE = 0.6;
const LANDLINE_SHARE = 0.3;
// Exchanges whose thousands blocks are assigned one by one (pooled), each block its own carrier.
const POOLED_SHARE = 0.12;
// Exchanges with a few ported numbers.
const PORTED_SHARE = 0.02;
const PORTED_PER_EXCHANGE = 4;
// Not subscriber exchanges in any area code (plant test, data access, information services): the
// only exchanges sample data calls not in service, so that it never calls a real number invalid.
export const SAMPLE_NOT_IN_SERVICE_EXCHANGES: readonly number[] = [958, 959, 976];

// murmur3's 32-bit finaliser: a well-mixed hash of an integer, the same on every platform.
function mix(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) fixed by the seed, a key below 2^31 and a salt naming what is being drawn. */
function draw(seed: number, key: number, salt: number): number {
  return mix(mix(key ^ Math.imul(seed, 0x9e3779b1)) ^ salt) / 4_294_967_296;
}

function lineTypeOf(share: number): LineTypeCode {
  if (share < MOBILE_SHARE) return ClassCode.MOBILE;
  if (share < MOBILE_SHARE + LANDLINE_SHARE) return ClassCode.LANDLINE;
  return ClassCode.VOIP;
}

/**
 * Generated exchange data for the embedded default, where no real data has been imported: the
 * same seed gives the same table, byte for byte. Covers every exchange (200-999) of every US
 * geographic area code in service: about 60% mobile, 30% landline, 10% VoIP by exchange; 12% of
 * exchanges pooled, their blocks typed one by one; 2% with a few ported numbers; 958, 959 and
 * 976 not in service. Its source is `sample`, so every answer from it says so.
 */
export function sampleExchangeTable(seed = DEFAULT_SAMPLE_SEED): ExchangeTable {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`the sample seed must be an integer, not ${seed}`);
  const builder = new ExchangeTableBuilder({ source: 'sample' });
  const notInService = new Set(SAMPLE_NOT_IN_SERVICE_EXCHANGES);

  for (let npa = 200; npa <= 999; npa++) {
    const info = areaCodeInfo(npa);
    if (info.status !== 'geographic' || !info.inService || info.country !== 'US') continue;
    builder.coverArea(npa);
    for (let nxx = 200; nxx <= 999; nxx++) {
      const exchange = npa * 1000 + nxx;
      if (notInService.has(nxx)) {
        builder.setExchange(exchange, ClassCode.EXCHANGE_NOT_IN_SERVICE);
        continue;
      }
      builder.setExchange(exchange, lineTypeOf(draw(seed, exchange, 1)));
      if (draw(seed, exchange, 2) < POOLED_SHARE) {
        for (let x = 0; x < 10; x++) {
          const block = exchange * 10 + x;
          builder.setBlock(block, lineTypeOf(draw(seed, block, 3)));
        }
      }
      if (draw(seed, exchange, 4) < PORTED_SHARE) {
        for (let i = 0; i < PORTED_PER_EXCHANGE; i++) {
          const line = Math.floor(draw(seed, exchange, 5 + i) * 10_000);
          const answer: ExchangeAnswer = lineTypeOf(draw(seed, exchange, 5 + PORTED_PER_EXCHANGE + i));
          builder.setNumber(exchange * 10_000 + line, answer);
        }
      }
    }
  }
  return builder.build(seed === DEFAULT_SAMPLE_SEED ? SAMPLE_VERSION : `${SAMPLE_VERSION}-seed-${seed}`);
}
