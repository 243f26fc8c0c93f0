import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { ScrubError } from '../errors.js';
import type { RangeReader } from './part-upload.js';
import type { SourceBytes } from './upload.js';

/**
 * A file path's bytes, streamed from disk. Node only: the Node entry (`index.ts`) hands it to the
 * uploader, the browser entry does not, so no browser bundle ever meets `node:fs`.
 */
export async function openPath(path: string): Promise<SourceBytes> {
  const file = await stat(path);
  // A pipe or a device (/dev/stdin) has no size until it has been read.
  // Read 1 MiB at a time: a large file goes up in a sixteenth of the reads and chunks it would
  // take at Node's default of 64 KiB, which is CPU the service's scrub shares on a small machine.
  const chunks = createReadStream(path, { highWaterMark: 1024 * 1024 });
  return { chunks, length: file.isFile() ? file.size : undefined };
}

/** A file path read by byte ranges, for an upload in parts. Node only, as `openPath`. */
export async function openPathRanges(path: string): Promise<RangeReader> {
  const handle = await open(path, 'r');
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new ScrubError(`${path} is not a regular file: it can be sent whole, not in parts.`);
  }
  return {
    size: info.size,
    async read(start, end) {
      const bytes = new Uint8Array(end - start);
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
        if (bytesRead === 0) throw new ScrubError(`${path} became shorter while it was being uploaded.`);
        filled += bytesRead;
      }
      return bytes;
    },
    close: () => handle.close(),
  };
}
