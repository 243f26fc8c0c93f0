import type { SharedDncSet } from '../dnc/set.ts';
import type { SharedExchangeTable } from '../exchange/exchange-table.ts';
import type { CsvSeparator } from './csv-input.ts';

/** What the thread is started with: the job, and the tables it maps rather than copies. */
export interface CsvThreadData {
  mode: 'scrub' | 'count' | 'rows';
  phoneColumn: string | number;
  header?: boolean;
  separator?: CsvSeparator;
  maxRowBytes?: number;
  exchange: SharedExchangeTable | null;
  dnc: SharedDncSet | null;
  dncMask?: number;
}

/** From the caller: the next piece of the file, or its end. */
export type ToThread = { type: 'chunk'; chunk: Uint8Array } | { type: 'end' };

/** A refusal as it crosses threads: a CsvError keeps its code and line. */
export interface ThreadError {
  message: string;
  code?: string;
  line?: number | null;
  stack?: string;
}

/** From the thread: asks for input, hands over output, reports progress, and settles once. */
export type FromThread =
  | { type: 'pull' }
  | { type: 'out'; chunk: Uint8Array }
  | { type: 'progress'; rows: number; bytes: number }
  | { type: 'done'; result: unknown }
  | { type: 'error'; error: ThreadError };
