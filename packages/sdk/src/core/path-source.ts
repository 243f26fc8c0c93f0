import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
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
