import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

export interface LocalCsv {
  path: string;
  /** The name the dashboard shows, unless --name says otherwise. */
  name: string;
  remove(): Promise<void>;
}

/**
 * The CSV as a regular file. stdin, or a pipe given as a path, is first copied to a temporary file
 * readable by this user only: an upload URL may be S3's, which needs the length before the first
 * byte, and a pipe's length is known only at its end. The copy streams, so memory stays flat.
 */
export async function localCsv(file: string, context: Context): Promise<LocalCsv> {
  if (file !== '-') {
    const stats = await stat(file).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(
        `Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
      );
    });
    if (stats.isDirectory()) throw new UsageError(`${file} is a directory, not a CSV file`);
    if (stats.isFile()) return { path: file, name: basename(file), remove: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), 'scrub-csv-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'upload.csv');
  try {
    const input = file === '-' ? context.io.stdin : createReadStream(file);
    await pipeline(input, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, name: file === '-' ? 'stdin.csv' : basename(file), remove };
}
