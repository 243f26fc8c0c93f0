import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvDialect, type CsvSeparator, checkText, detectDialect, encodingOf } from './dialect.ts';
import { RowBuffer } from './row-buffer.ts';

/**
 * A CSV file: its bytes, or a stream of them (a Node Readable, a web ReadableStream, any async
 * iterable). String chunks, from a stream given an encoding, are taken as UTF-8.
 */
export type CsvInput = Uint8Array | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>;

/** A file ready to scan: its dialect, and its bytes as UTF-8 without the byte-order mark. */
export interface OpenedCsv extends CsvDialect {
  chunks: AsyncIterable<Buffer>;
}

// The head decides the dialect and whether the file is text: chunks up to 40 CR or LF bytes (20
// CRLF lines), or this many bytes of a file whose lines are longer.
const HEAD_BYTES = 64 * 1024;
const HEAD_BREAKS = 40;
const LF = 0x0a;
const CR = 0x0d;

function asBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

async function* chunksOf(input: CsvInput): AsyncGenerator<Buffer> {
  if (input instanceof Uint8Array) {
    if (input.length > 0) yield asBuffer(input);
    return;
  }
  for await (const chunk of input) {
    const buffer = asBuffer(chunk);
    if (buffer.length > 0) yield buffer;
  }
}

function countBreaks(bytes: Buffer): number {
  let count = 0;
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) count++;
  for (let i = bytes.indexOf(CR); i !== -1; i = bytes.indexOf(CR, i + 1)) count++;
  return count;
}

/**
 * Reads the head of a CSV file to learn its encoding and dialect, refuses files that are not text
 * or are empty, and hands back the whole file as UTF-8 (UTF-16 is transcoded as it streams; UTF-8,
 * or a legacy 8-bit encoding, passes through byte for byte) without its byte-order mark.
 */
export async function openCsv(input: CsvInput, separator?: CsvSeparator): Promise<OpenedCsv> {
  const source = chunksOf(input);
  // Each chunk is copied as it comes, so that a reader may reuse a chunk once it asks for the next.
  const head = new RowBuffer();
  let headBytes = 0;
  let breaks = 0;
  let complete = false;
  while (headBytes < HEAD_BYTES && breaks < HEAD_BREAKS) {
    const next = await source.next();
    if (next.done) {
      complete = true;
      break;
    }
    head.add(next.value);
    headBytes += next.value.length;
    breaks += countBreaks(next.value);
  }
  const raw = head.finish();
  try {
    return openHead(source, raw, complete, separator);
  } catch (error) {
    // A refused file is not read further: close the input.
    await source.return(undefined);
    throw error;
  }
}

function openHead(
  source: AsyncGenerator<Buffer>,
  raw: Buffer,
  complete: boolean,
  separator: CsvSeparator | undefined,
): OpenedCsv {
  const { encoding, bom } = encodingOf(raw);

  let head: Buffer;
  let rest: AsyncIterable<Buffer>;
  if (encoding === 'utf-8') {
    head = bom ? raw.subarray(3) : raw;
    rest = source;
  } else {
    // TextDecoder drops the byte-order mark and carries a character cut between chunks over.
    const decoder = new TextDecoder(encoding);
    head = Buffer.from(decoder.decode(raw, { stream: !complete }));
    rest = (async function* () {
      for await (const chunk of source) yield Buffer.from(decoder.decode(chunk, { stream: true }));
      const last = decoder.decode();
      if (last !== '') yield Buffer.from(last);
    })();
  }
  checkText(raw, head);
  if (head.length === 0 && complete) throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
  const dialect = detectDialect(head, complete);
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      yield* rest;
    } finally {
      // A reader that stops early (a preview) closes the input it came from.
      await source.return(undefined);
    }
  }
  return {
    encoding,
    bom,
    separator: separator ?? dialect.separator,
    lineEnding: dialect.lineEnding,
    chunks: chunks(),
  };
}
