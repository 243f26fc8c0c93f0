import type { SharedDncSet } from '../dnc/set.ts';
import type { SharedExchangeTable } from '../exchange/exchange-table.ts';
import type { CsvSeparator } from './dialect.ts';
import type { OptionalColumn } from './scrub-csv.ts';

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
  columns?: OptionalColumn[];
  evaluatedAt?: number;
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

/**
 * The buffer to move rather than copy with a chunk posted across threads: a copy leaves the
 * original as garbage on one side while the copy is garbage on the other, and at hundreds of MB a
 * file both sides hold tens of MB of them. A buffer is moved only when nothing else can use it:
 * larger than Node's shared pool of small Buffers (which it would take from every Buffer in it),
 * not shared memory, and (for a chunk from a stream we do not own, `whole`) seen whole by the chunk.
 */
export function movable(chunk: Uint8Array, whole: boolean): ArrayBuffer[] {
  const { buffer } = chunk;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength <= Buffer.poolSize) return [];
  if (whole && (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength)) return [];
  return [buffer];
}

/**
 * Gives a chunk's memory back at once rather than whenever V8 next collects garbage: detaching an
 * ArrayBuffer frees it. V8 counts memory outside its heap loosely, so a stream of garbage chunks
 * would otherwise hold on to about 100 MB in each thread. Only for a chunk whose buffer nothing
 * else holds (one that crossed threads).
 */
export function release(chunk: Uint8Array): void {
  const { buffer } = chunk;
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
}
