import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { crc32, createGunzip } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * What an importer reads: a file path, the bytes in memory, or a stream of them. Each may be plain
 * text, gzip, or a zip archive (the FTC's downloads are zipped). A zip is read from its central
 * directory at the end, so it must be a path or in memory; a gzip can also be a stream.
 */
export type DncInput = string | Uint8Array | Readable | AsyncIterable<Uint8Array>;

/** One text file of the input: the input itself, or one file inside a zip. */
export interface InputFile {
  /** The file's name inside a zip; null for plain or gzip input. */
  name: string | null;
  chunks: AsyncIterable<Buffer>;
}

/** A problem with the input as a whole, not one of its lines: not a zip, a corrupt zip. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];
const GZIP = [0x1f, 0x8b];
const READ_SIZE = 1 << 20;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
const isZip = (bytes: Uint8Array) => startsWith(bytes, ZIP) || startsWith(bytes, EMPTY_ZIP);

/** A name for messages: the file's name, or what the caller calls it. */
export function inputLabel(input: DncInput, fallback: string): string {
  return typeof input === 'string' ? basename(input) : fallback;
}

/** The text files of an input, one after the other. */
export async function* inputFiles(input: DncInput): AsyncGenerator<InputFile> {
  if (typeof input === 'string') {
    const head = await readHead(input);
    if (isZip(head)) {
      yield* zipFiles(await yauzl.openPromise(input, { lazyEntries: true, autoClose: true }).catch(badZip));
    } else {
      const chunks = Readable.from(fileChunks(input));
      yield { name: null, chunks: startsWith(head, GZIP) ? gunzip(chunks) : chunks };
    }
    return;
  }
  if (input instanceof Uint8Array) {
    const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    if (isZip(bytes)) {
      yield* zipFiles(await yauzl.fromBufferPromise(bytes, { lazyEntries: true }).catch(badZip));
    } else {
      const chunks = Readable.from([bytes]);
      yield { name: null, chunks: startsWith(bytes, GZIP) ? gunzip(chunks) : chunks };
    }
    return;
  }
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : asBuffer(first.value);
  if (isZip(head)) {
    await iterator.return?.();
    throw new InputError(
      'a zip archive is read from its directory at the end: give it as a file path or as bytes, not as a stream',
    );
  }
  async function* rest(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield asBuffer(next.value);
  }
  const chunks = Readable.from(rest());
  yield { name: null, chunks: startsWith(head, GZIP) ? gunzip(chunks) : chunks };
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

// Large reads: the importers' cost per chunk is small, the number of chunks adds up.
async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_SIZE);
      const { bytesRead } = await file.read(buffer, 0, READ_SIZE, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

function gunzip(chunks: Readable): Readable {
  return pipeline(chunks, createGunzip(), () => {});
}

function asBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function badZip(error: Error): never {
  throw new InputError(`not a readable zip archive: ${error.message}`);
}

/**
 * Files in a zip, in the archive's order; folders and macOS resource forks skipped. yauzl does not
 * check the CRC-32 of what it inflates, so this does: a damaged archive is refused, not half read.
 */
async function* zipFiles(zip: yauzl.ZipFile): AsyncGenerator<InputFile> {
  let files = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/') || entry.fileName.startsWith('__MACOSX/')) continue;
      files++;
      const stream = await zip.openReadStreamPromise(entry).catch(badZip);
      yield { name: entry.fileName, chunks: checked(stream, entry.crc32, entry.fileName) };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    badZip(error as Error);
  } finally {
    if (zip.isOpen) zip.close();
  }
  if (files === 0) throw new InputError('the zip archive holds no files');
}

async function* checked(stream: Readable, expected: number, name: string): AsyncGenerator<Buffer> {
  let crc = 0;
  try {
    for await (const chunk of stream) {
      crc = crc32(chunk as Buffer, crc);
      yield chunk as Buffer;
    }
  } catch (error) {
    badZip(error as Error);
  }
  if (crc !== expected) throw new InputError(`${name} in the zip archive is damaged (CRC-32 mismatch)`);
}
