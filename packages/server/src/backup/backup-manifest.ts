import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

/**
 * A backup of the embedded setup is a directory:
 *
 *   manifest.json        what follows, with the size and SHA-256 of every file; written last
 *   database.tar.gz      the embedded database (PGlite's data directory), as it stood at one moment
 *   data/<path>          the data directory's other files: customers' files (files/), the proof
 *                        signing keys (proof/), the built-in pool's token keys (identity/), the
 *                        imported reference data (datasets/)
 *
 * Restoring checks every file against the manifest before it writes anything.
 */
export const BACKUP_FORMAT = 'scrub-backup-1';
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database.tar.gz';
export const DATA_DIR = 'data';

/** A path inside the backup, `/`-separated: nothing absolute, no way out of it. */
const InsidePath = z
  .string()
  .min(1)
  .refine(
    (path) => !isAbsolute(path) && normalize(path) === path && !path.split('/').includes('..'),
    'a relative path inside the backup',
  );

const ManifestFile = z.object({
  path: InsidePath,
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestFile = z.infer<typeof ManifestFile>;

export const Manifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  created_at: z.string(),
  server_version: z.string(),
  /** The data directory it was taken from (for the operator's eyes only). */
  data_dir: z.string(),
  /** The database dump first, then everything under `data/`. */
  files: z.array(ManifestFile),
  /** Files the database may name that were deleted while the backup was copying (a retention sweep). */
  vanished: z.array(z.string()),
});
export type Manifest = z.infer<typeof Manifest>;

/** The SHA-256 and size of a file, read as a stream. */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Copies `from` to a new file `to` (mode 0600), answering the SHA-256 and size of what was written. */
export async function copyHashed(from: string, to: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(
    createReadStream(from, { highWaterMark: 1 << 20 }),
    tap,
    createWriteStream(to, { flags: 'wx', mode: 0o600 }),
  );
  return { sha256: hash.digest('hex'), bytes };
}
