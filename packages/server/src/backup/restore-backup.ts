import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ApiError } from '../errors/api-error.js';
import { restrictDataDir } from '../storage/data-dir.js';
import { lockDataDir } from '../storage/data-dir-lock.js';
import { loadEmbeddedDatabase } from '../storage/database.js';
import { copyHashed, DATA_DIR, DATABASE_FILE, hashFile, MANIFEST_FILE, Manifest } from './backup-manifest.js';

/** What `scrub-server restore` reports. */
export interface RestoreSummary {
  dataDir: string;
  createdAt: string;
  databaseBytes: number;
  files: number;
  fileBytes: number;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

const refused = (source: string, why: string) =>
  new ApiError('bad_request', `${source} is not a whole Scrub backup: ${why}. Nothing was restored.`);

async function readManifest(source: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(source, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if (isMissing(error)) throw refused(source, `it has no ${MANIFEST_FILE}`);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw refused(source, `its ${MANIFEST_FILE} is not JSON`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw refused(source, `its ${MANIFEST_FILE} is not one (${issue?.path.join('.')}: ${issue?.message})`);
  }
  const manifest = parsed.data;
  const [database, ...rest] = manifest.files;
  if (database?.path !== DATABASE_FILE) throw refused(source, `its manifest names no ${DATABASE_FILE}`);
  const paths = new Set<string>();
  for (const file of rest) {
    if (!file.path.startsWith(`${DATA_DIR}/`) || paths.has(file.path)) {
      throw refused(source, `its manifest names ${file.path} out of place or twice`);
    }
    paths.add(file.path);
  }
  return manifest;
}

/**
 * Reads the backup's manifest and checks every file it lists, size and SHA-256, before anything
 * is written: a backup that was cut short, changed or mixed with another is refused whole.
 */
export async function verifyBackup(source: string): Promise<Manifest> {
  const manifest = await readManifest(source);
  const problems: string[] = [];
  for (const file of manifest.files) {
    const found = await hashFile(join(source, file.path)).catch((error) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!found) problems.push(`${file.path} is missing`);
    else if (found.bytes !== file.bytes || found.sha256 !== file.sha256)
      problems.push(`${file.path} differs`);
  }
  if (problems.length > 0) {
    const more = problems.length > 5 ? ` and ${problems.length - 5} more` : '';
    throw refused(source, `${problems.slice(0, 5).join(', ')}${more}`);
  }
  return manifest;
}

/** Empties a data directory no process holds (the lock says so); refused while a server uses it. */
async function emptyDataDir(dataDir: string, names: string[]): Promise<void> {
  const unlock = lockDataDir(join(dataDir, 'pglite'));
  try {
    for (const name of names) {
      if (name !== 'pglite.lock') await rm(join(dataDir, name), { recursive: true, force: true });
    }
  } finally {
    unlock();
  }
}

async function writeRestore(source: string, manifest: Manifest, dataDir: string): Promise<void> {
  const dump = new Blob([await readFile(join(source, DATABASE_FILE))]);
  await loadEmbeddedDatabase(join(dataDir, 'pglite'), dump);
  for (const file of manifest.files.slice(1)) {
    const to = join(dataDir, file.path.slice(DATA_DIR.length + 1));
    await mkdir(dirname(to), { recursive: true, mode: 0o700 });
    const copied = await copyHashed(join(source, file.path), to);
    if (copied.sha256 !== file.sha256) {
      throw new ApiError('conflict', `${join(source, file.path)} changed while it was being restored.`);
    }
  }
  restrictDataDir(dataDir);
}

/**
 * Restores a backup into `dataDir`: a new or empty directory, or with `force` one whose contents
 * are replaced (never one a running server holds). The backup is verified whole first; a restore
 * that fails part-way leaves the directory empty.
 */
export async function restoreBackup(
  source: string,
  dataDir: string,
  { force = false }: { force?: boolean } = {},
): Promise<RestoreSummary> {
  const manifest = await verifyBackup(source);
  const present = await readdir(dataDir).catch((error) => {
    if (isMissing(error)) return [];
    throw error;
  });
  if (present.length > 0 && !force) {
    throw new ApiError(
      'conflict',
      `The data directory ${dataDir} is not empty: restore into a new one (set SCRUB_DATA_DIR), or add --force to replace what it holds.`,
    );
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (present.length > 0) await emptyDataDir(dataDir, present);
  try {
    await writeRestore(source, manifest, dataDir);
  } catch (error) {
    await emptyDataDir(dataDir, await readdir(dataDir)).catch(() => {});
    throw error;
  }
  const [database, ...files] = manifest.files;
  return {
    dataDir,
    createdAt: manifest.created_at,
    databaseBytes: database!.bytes,
    files: files.length,
    fileBytes: files.reduce((sum, file) => sum + file.bytes, 0),
  };
}
