import type { SharedDncSet } from '../dnc/set.ts';
import type { SharedExchangeTable } from '../exchange/exchange-table.ts';
import type { CarrierOption } from './carrier-cells.ts';
import type { CsvShape, ScrubbedCsvPart } from './csv-counts.ts';
import { CsvError, type CsvErrorCode } from './csv-error.ts';
import type { CsvDialect, CsvSeparator } from './dialect.ts';
import type { SharedReassignedOption } from './reassigned-cells.ts';
import type { OptionalColumn } from './scrub-options.ts';

/** A job for the thread: what to do, and the tables it maps rather than copies. */
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
  /** Operator lists, one result column each (`ScrubCsvOptions.lists`). */
  lists?: SharedDncSet;
  evaluatedAt?: number;
  reassigned?: SharedReassignedOption;
  /** Carrier lookups' line types (plain typed arrays, copied). */
  carrier?: CarrierOption;
  /** More than 1: the file is cut into parts scrubbed on this many threads (`scrubCsvInParallel`). */
  threads?: number;
}

/** What a thread scrubbing parts of one file is given with the file (`csv-part-threads.ts`). */
export interface CsvPartThreadData
  extends Omit<CsvThreadData, 'mode' | 'separator' | 'threads' | 'evaluatedAt'> {
  dialect: CsvDialect;
  /** Every thread tells the calling window at the same moment. */
  evaluatedAt: number;
}

/**
 * To a part thread: a file's options and tables, then its parts to scrub (numbered in the file's
 * order; their bytes moved to the thread), then `idle` when the file is done (the thread lets go of
 * its tables and waits, warm, for the next file's `job`).
 */
export type PartToThread =
  | { type: 'job'; data: CsvPartThreadData }
  | { type: 'part'; index: number; bytes: Uint8Array; last: boolean; shape: CsvShape }
  | { type: 'idle' };

/** The thread has loaded the engine; then each part scrubbed, or why it could not be. */
export type PartFromThread =
  | { type: 'ready' }
  | { type: 'done'; index: number; part: ScrubbedCsvPart }
  | { type: 'error'; index: number; error: ThreadError };

/** From the caller: a job to run, then the next piece of its file, or its end. */
export type ToThread =
  | { type: 'job'; data: CsvThreadData }
  | { type: 'chunk'; chunk: Uint8Array }
  | { type: 'end' };

/** A refusal as it crosses threads: a CsvError keeps its code and line. */
export interface ThreadError {
  message: string;
  code?: string;
  line?: number | null;
  stack?: string;
}

/** An error as it crosses to the other thread. */
export function threadErrorOf(error: unknown): ThreadError {
  return error instanceof CsvError
    ? { message: error.message, code: error.code, line: error.line }
    : { message: (error as Error).message, stack: (error as Error).stack };
}

/** An error that crossed from the other thread: a CsvError again when it was one. */
export function errorOf(error: ThreadError): Error {
  return error.code
    ? new CsvError(error.code as CsvErrorCode, error.message, error.line ?? null)
    : Object.assign(new Error(error.message), { stack: error.stack });
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
export function release(chunk: ArrayBufferView): void {
  const { buffer } = chunk;
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
}
