import { DncSet } from '../dnc/set.ts';
import { ExchangeTable } from '../exchange/exchange-table.ts';
import type { CsvThreadData } from './csv-thread-protocol.ts';
import { reassignedFromShared } from './reassigned-cells.ts';

/** A thread's scrub options, from the data it was posted: the caller's tables mapped, not copied. */
export function threadScrubOptions(data: Omit<CsvThreadData, 'mode' | 'threads'>) {
  return {
    phoneColumn: data.phoneColumn,
    ...(data.header === undefined ? {} : { header: data.header }),
    ...(data.separator === undefined ? {} : { separator: data.separator }),
    ...(data.maxRowBytes === undefined ? {} : { maxRowBytes: data.maxRowBytes }),
    ...(data.exchange ? { exchange: ExchangeTable.fromShared(data.exchange) } : {}),
    ...(data.dnc ? { dnc: DncSet.fromShared(data.dnc) } : {}),
    ...(data.dncMask === undefined ? {} : { dncMask: data.dncMask }),
    ...(data.columns === undefined ? {} : { columns: data.columns }),
    ...(data.lists === undefined ? {} : { lists: DncSet.fromShared(data.lists) }),
    ...(data.evaluatedAt === undefined ? {} : { evaluatedAt: data.evaluatedAt }),
    ...(data.reassigned === undefined ? {} : { reassigned: reassignedFromShared(data.reassigned) }),
    ...(data.carrier === undefined ? {} : { carrier: data.carrier }),
  };
}
