import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors/config-error.js';

/** A data directory the service will not use: others could change what it holds. */
export class UnsafeDataDirError extends ConfigError {
  override name = 'UnsafeDataDirError';
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

/**
 * Makes the data directory (database, signing keys, customers' files, reference data) owner-only:
 * created 0700 when missing (unless `create` is false: a setup that keeps nothing there); refused when other users can write to it, since they could replace
 * its contents; and everything under it set to 0700 (directories) or 0600 (files). The embedded
 * database writes its files world-writable whatever the umask, so the directory's own 0700 is what
 * keeps others out while it runs; `restrictDataDir` runs again when it closes.
 */
export function secureDataDir(dir: string, { create = true }: { create?: boolean } = {}): void {
  let mode: number;
  try {
    const stats = lstatSync(dir);
    if (!stats.isDirectory()) {
      throw new UnsafeDataDirError(
        `The data directory ${dir} is not a directory. Set SCRUB_DATA_DIR to a directory.`,
      );
    }
    mode = stats.mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!create) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    mode = 0o700;
  }
  if (mode & 0o022) {
    throw new UnsafeDataDirError(
      `The data directory ${dir} can be written by other users (mode ${octal(mode)}), who could change the database, keys and files it holds, so the service will not use it. Make it yours alone and start again: chmod -R go-rwx ${dir}`,
    );
  }
  restrictDataDir(dir);
}

/** Sets the directory and everything under it owner-only (0700 directories, 0600 files), without recursion. */
export function restrictDataDir(dir: string): void {
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const stats = lstatSync(next, { throwIfNoEntry: false });
    // Symbolic links are left alone: their own mode means nothing, and their target is not ours to change.
    if (!stats || stats.isSymbolicLink()) continue;
    if (stats.isDirectory()) {
      if (stats.mode & 0o077) chmodSync(next, 0o700);
      for (const name of readdirSync(next)) pending.push(join(next, name));
    } else if (stats.mode & 0o077) {
      chmodSync(next, 0o600);
    }
  }
}
