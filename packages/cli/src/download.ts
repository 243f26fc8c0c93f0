import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CliIO } from './io.js';

/**
 * What a download to a file may hold in memory while a write is under way: the chunks that come
 * meanwhile (about 64 kB each) go to disk together in the next write, rather than one write each.
 */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Copies a download to stdout as it arrives, waiting whenever stdout's buffer is full, so that a
 * result of any size piped to a slow reader never piles up in memory.
 */
async function toStdout(io: CliIO, stream: ReadableStream<Uint8Array>): Promise<void> {
  const { stdout } = io;
  for await (const chunk of stream) {
    if (stdout.write(chunk) === false && stdout.once) {
      await new Promise<void>((resolve) => stdout.once?.('drain', resolve));
    }
  }
}

/** A download, to the file `output` or else to stdout. A file left incomplete by a failure is removed. */
export async function saveDownload(
  io: CliIO,
  stream: ReadableStream<Uint8Array>,
  output: string | undefined,
): Promise<void> {
  if (output === undefined) return toStdout(io, stream);
  try {
    await pipeline(Readable.fromWeb(stream), createWriteStream(output, { highWaterMark: WRITE_BATCH_BYTES }));
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  }
}
