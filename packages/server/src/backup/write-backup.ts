import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { ApiError } from '../errors/api-error.js';
import { serverVersion } from '../version.js';
import {
  BACKUP_FORMAT,
  copyHashed,
  DATA_DIR,
  DATABASE_FILE,
  hashFile,
  MANIFEST_FILE,
  type Manifest,
  type ManifestFile,
} from './backup-manifest.js';

/** Where a backup is taken from: the data directory, and the database in it (a running server's, or one opened here). */
export interface BackupSource {
  dataDir: string;
  /** The embedded database as one consistent tarball (`DatabaseHandle.dumpEmbedded`). */
  dumpDatabase(deadline: number): Promise<Blob>;
}

/** What a backup holds, as `scrub-server backup` reports it. */
export interface BackupSummary {
  destination: string;
  database_bytes: number;
  files: number;
  file_bytes: number;
  vanished: string[];
}

/**
 * What under the data directory is not copied: the live database (dumped instead) and its lock,
 * the running server's channel, writes still under way (the file store's scratch files) and the
 * reference data's import lock.
 */
const NOT_COPIED = new Set([
  'pglite',
  'pglite.lock',
  'local-control.json',
  'files/.tmp',
  'datasets/import.lock',
]);
const notCopied = (path: string) => NOT_COPIED.has(path) || /^local-control\.json\..*\.tmp$/.test(path);

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Every regular file under `dir` that a backup copies, as paths relative to it; `/`-separated, sorted. */
async function filesToCopy(dir: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const entries = await readdir(join(dir, next), { withFileTypes: true }).catch((error) => {
      if (isMissing(error)) return [];
      throw error;
    });
    for (const entry of entries) {
      const path = next ? `${next}/${entry.name}` : entry.name;
      if (notCopied(path)) continue;
      // Symbolic links and special files are no part of what the service writes.
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) found.push(path);
    }
  }
  return found.sort();
}

async function refuseDestination(dataDir: string, destination: string): Promise<void> {
  if (!isAbsolute(destination)) {
    throw new ApiError('bad_request', `The backup's destination must be an absolute path: ${destination}.`);
  }
  const inside = relative(dataDir, destination);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
    throw new ApiError(
      'bad_request',
      `The backup's destination ${destination} is inside the data directory ${dataDir}: put it elsewhere.`,
    );
  }
  const present = await readdir(destination).catch((error) => {
    if (isMissing(error)) return [];
    throw error;
  });
  if (present.length > 0) {
    throw new ApiError(
      'conflict',
      `${destination} already holds files: a backup goes into a new (or empty) directory.`,
    );
  }
}

/**
 * Writes a backup of the data directory to `destination` (a new or empty directory): the database
 * first, at one moment, then the files, so that every file the database names is in it (files are
 * written once, under a new name, and never changed). It is made beside the destination and
 * renamed into place complete; nothing is left behind when it fails. Refused once `deadline` passes.
 */
export async function writeBackup(
  source: BackupSource,
  destination: string,
  deadline: number,
): Promise<BackupSummary> {
  await refuseDestination(source.dataDir, destination);
  const partial = `${destination}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true, mode: 0o700 });
  try {
    const dump = await source.dumpDatabase(deadline);
    await writeFile(join(partial, DATABASE_FILE), Buffer.from(await dump.arrayBuffer()), {
      mode: 0o600,
      flag: 'wx',
    });
    const database = await hashFile(join(partial, DATABASE_FILE));
    const files: ManifestFile[] = [{ path: DATABASE_FILE, ...database }];
    const vanished: string[] = [];
    for (const path of await filesToCopy(source.dataDir)) {
      if (Date.now() > deadline) {
        throw new ApiError('service_unavailable', 'The backup did not finish before its deadline.');
      }
      const copy = join(partial, DATA_DIR, path);
      await mkdir(dirname(copy), { recursive: true, mode: 0o700 });
      try {
        files.push({ path: `${DATA_DIR}/${path}`, ...(await copyHashed(join(source.dataDir, path), copy)) });
      } catch (error) {
        if (!isMissing(error)) throw error;
        await rm(copy, { force: true });
        vanished.push(path);
      }
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      created_at: new Date().toISOString(),
      server_version: serverVersion,
      data_dir: source.dataDir,
      files,
      vanished,
    };
    await writeFile(join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // An empty directory given as the destination is replaced by the finished backup.
    await rmdir(destination).catch((error) => {
      if (!isMissing(error)) throw error;
    });
    await rename(partial, destination);
    const copied = files.slice(1);
    return {
      destination,
      database_bytes: database.bytes,
      files: copied.length,
      file_bytes: copied.reduce((sum, file) => sum + file.bytes, 0),
      vanished,
    };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}
