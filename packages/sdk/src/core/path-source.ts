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
  return { chunks: createReadStream(path), length: file.isFile() ? file.size : undefined };
}
