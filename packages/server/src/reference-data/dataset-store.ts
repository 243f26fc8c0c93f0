// Over 500 lines, kept whole: the store's on-disk formats (manifest, each kind of version) and the one class that reads and writes them.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DisconnectList, DncList, ExchangeTable, type SharedExchangeTable } from '@scrub/engine';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { ImportHistoryEntry } from './import-history.js';

/**
 * The operator's imported reference data, under `<data dir>/datasets/`:
 *
 *   manifest.json                       the live (and previous) version of each dataset
 *   versions/<dataset>/<id>/meta.json   what the version is; written last, so a version without
 *                                       it was never finished
 *   versions/<dataset>/<id>/*.bin       the table's buffers, byte for byte: loading is a read into
 *                                       SharedArrayBuffers, not a re-import
 *   versions/exchange/<id>/sources/     the files the exchange table was built from, so that a new
 *                                       part (a new block report) rebuilds it with the others
 *   staged/<id>/                        exchange parts waiting for their pair
 *   import.lock                         held by the one import running
 *
 * Imports write a new version beside the live one and then replace the manifest in one rename;
 * readers (a running server) only ever read the manifest and the versions it names.
 */
export const DATASETS_DIR = 'datasets';
const MANIFEST_FILE = 'manifest.json';
const META_FILE = 'meta.json';
const MANIFEST_FORMAT = 'scrub-datasets-1';
const VERSION_FORMAT = 'scrub-dataset-version-1';

/** The shared datasets by name, each account's list as `internal:<profile id>`, operator lists as `list:<name>`. */
export const EXCHANGE = 'exchange';
export const FEDERAL = 'federal';
/** Permanent disconnections, for reassigned-number checks (`data import disconnects`). */
export const DISCONNECTS = 'disconnects';
const DATASET_NAME =
  /^(exchange|federal|disconnects|state:[A-Z]{2}|internal:[A-Za-z0-9_-]{1,64}|list:[a-z0-9][a-z0-9-]{0,63})$/;

/** The files an exchange table is built from (`importExchangeData`'s names). */
export const EXCHANGE_PARTS = ['coCodes', 'ocnLineTypes', 'thousandsBlocks', 'numberOverrides'] as const;
export type ExchangePart = (typeof EXCHANGE_PARTS)[number];

// Reads are done in pieces, each checksummed as it arrives, so a server loading a 350 MB list
// never blocks its event loop for more than a few milliseconds at a time.
const IO_CHUNK = 8 * 1024 * 1024;
// The lock's directory is touched every LOCK_UPDATE_MS; one untouched for LOCK_STALE_MS belonged
// to an import that died. Generous, because building the whole registry holds the event loop
// (and so the touching) for seconds.
const LOCK_STALE_MS = 120_000;
const LOCK_UPDATE_MS = 10_000;
// How long a second import waits for the first: an hour, polling twice a second.
const LOCK_WAIT = { retries: 7200, factor: 1, minTimeout: 500, maxTimeout: 500 };

/** A path inside the datasets directory, as the manifest and metas keep them: no way out of it. */
const RelativePath = z
  .string()
  .regex(/^(versions|staged)(\/[^/\\]+)+$/)
  .refine((path) => !path.split('/').some((part) => part === '..' || part === '.'), 'must stay inside');

const BufferFile = z.object({
  file: z.string().regex(/^[a-z-]+\.bin$/),
  bytes: z.number().int().min(0),
  crc32: z.number().int().min(0),
});
export type BufferFile = z.infer<typeof BufferFile>;

const ImportMode = z.enum(['strict', 'partial']);

/** One file an exchange table was (or will be) built from. */
const SourceFile = z.object({
  path: RelativePath,
  /** The operator's name for it. */
  name: z.string(),
  version: z.string(),
  sha256: z.string(),
  mode: ImportMode,
  importedAt: z.string(),
});
export type SourceFile = z.infer<typeof SourceFile>;

const ExchangeSources = z.object({
  coCodes: SourceFile.optional(),
  ocnLineTypes: SourceFile.optional(),
  thousandsBlocks: SourceFile.optional(),
  numberOverrides: SourceFile.optional(),
});
export type ExchangeSources = z.infer<typeof ExchangeSources>;

/** What an import read, for `data status`. */
const ImportSummary = z.object({
  source: z.string(),
  mode: ImportMode,
  rowsRead: z.number(),
  rowsUsed: z.number(),
  problemCount: z.number(),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

const count = z.number().int().min(0);
const ExchangeMeta = z.object({
  format: z.literal(VERSION_FORMAT),
  kind: z.literal('exchange'),
  dataset: z.literal(EXCHANGE),
  version: z.string().min(1),
  importedAt: z.string(),
  table: z.object({
    format: z.string(),
    stats: z.object({
      exchanges: count,
      mobile: count,
      landline: count,
      voip: count,
      unknown: count,
      notInService: count,
      blocks: count,
      numbers: count,
    }),
  }),
  buffers: z.object({
    exchanges: BufferFile,
    blocks: BufferFile.nullable(),
    numberStart: BufferFile.nullable(),
    numberLines: BufferFile.nullable(),
    numberAnswers: BufferFile.nullable(),
  }),
  sources: ExchangeSources.required({ coCodes: true, ocnLineTypes: true }),
});
export type ExchangeMeta = z.infer<typeof ExchangeMeta>;

const DncMeta = z.object({
  format: z.literal(VERSION_FORMAT),
  kind: z.literal('dnc'),
  dataset: z.string().regex(DATASET_NAME),
  version: z.string().min(1),
  importedAt: z.string(),
  /** The list's release date (`YYYY-MM-DD`); absent from versions imported before it was recorded. */
  releasedOn: z.string().optional(),
  /** The FTC subscription account number (SAN) the federal list was downloaded under, when given. */
  ftcAccount: z.string().optional(),
  list: z.object({ size: count, exchanges: count }),
  buffer: BufferFile,
  /** The account an internal list belongs to, as the operator named it. */
  account: z.object({ id: z.string(), email: z.string().nullable() }).optional(),
  imports: z.array(ImportSummary),
});
export type DncMeta = z.infer<typeof DncMeta>;

const DisconnectsMeta = z.object({
  format: z.literal(VERSION_FORMAT),
  kind: z.literal('disconnects'),
  dataset: z.literal(DISCONNECTS),
  version: z.string().min(1),
  importedAt: z.string(),
  /** The last day the file speaks for, and the first (`YYYY-MM-DD`). */
  asOf: z.string(),
  from: z.string(),
  size: count,
  buffer: BufferFile,
  imports: z.array(ImportSummary),
});
export type DisconnectsMeta = z.infer<typeof DisconnectsMeta>;

const VersionMeta = z.discriminatedUnion('kind', [ExchangeMeta, DncMeta, DisconnectsMeta]);
export type VersionMeta = z.infer<typeof VersionMeta>;

const Manifest = z.object({
  format: z.literal(MANIFEST_FORMAT),
  updatedAt: z.string(),
  /** Each dataset's live version and the one before it (kept for one step), as directories. */
  datasets: z.record(
    z.string().regex(DATASET_NAME),
    z.object({ live: RelativePath, previous: RelativePath.nullable() }),
  ),
  /** Exchange parts imported while the exchange data cannot be built yet (no CO code file, or no OCN list). */
  staged: ExchangeSources,
  /** The last imports, oldest first (absent from manifests written before it was kept). */
  history: z.array(ImportHistoryEntry).default([]),
});
export type Manifest = z.infer<typeof Manifest>;

const emptyManifest = (): Manifest => ({
  format: MANIFEST_FORMAT,
  updatedAt: new Date(0).toISOString(),
  datasets: {},
  staged: {},
  history: [],
});

/** The store cannot be read or written as it should: a damaged manifest or version, a lost lock. */
export class DatasetStoreError extends Error {
  override name = 'DatasetStoreError';
}

export type LoadedVersion =
  | { kind: 'exchange'; meta: ExchangeMeta; table: ExchangeTable }
  | { kind: 'dnc'; meta: DncMeta; list: DncList }
  | { kind: 'disconnects'; meta: DisconnectsMeta; list: DisconnectList };

/** Federal and state lists: the lists every account's checks consult. */
export function isSharedList(name: string): boolean {
  return name === FEDERAL || name.startsWith('state:');
}

export class DatasetStore {
  /** `<data dir>/datasets`. */
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, DATASETS_DIR);
  }

  get manifestPath(): string {
    return join(this.dir, MANIFEST_FILE);
  }

  /** The manifest; an empty one when nothing was ever imported. Throws DatasetStoreError when it is damaged. */
  async readManifest(): Promise<Manifest> {
    let text: string;
    try {
      text = await readFile(this.manifestPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyManifest();
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new DatasetStoreError(`${this.manifestPath} is not JSON: ${(error as Error).message}`);
    }
    const parsed = Manifest.safeParse(json);
    if (!parsed.success) {
      throw new DatasetStoreError(
        `${this.manifestPath} is not a datasets manifest: ${z.prettifyError(parsed.error)}`,
      );
    }
    return parsed.data;
  }

  /** A version's meta file, checked. */
  async readMeta(dir: string): Promise<VersionMeta> {
    const path = join(this.dir, dir, META_FILE);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new DatasetStoreError(`${path} cannot be read: ${(error as Error).message}`);
    }
    const parsed = VersionMeta.safeParse(json);
    if (!parsed.success) throw new DatasetStoreError(`${path} is damaged: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  /** A version's table or list, its buffers read into SharedArrayBuffers and checked against their CRC-32. */
  async load(dir: string): Promise<LoadedVersion> {
    const meta = await this.readMeta(dir);
    const read = (file: BufferFile) => readBuffer(join(this.dir, dir, file.file), file);
    const readOptional = async (file: BufferFile | null) => (file === null ? null : read(file));
    try {
      if (meta.kind === 'dnc') {
        const buffer = await read(meta.buffer);
        const name = meta.dataset;
        return {
          kind: 'dnc',
          meta,
          list: DncList.fromShared({
            name,
            version: meta.version,
            releasedOn: meta.releasedOn ?? null,
            ...meta.list,
            buffer,
          }),
        };
      }
      if (meta.kind === 'disconnects') {
        const { version, asOf, from, size } = meta;
        const buffer = await read(meta.buffer);
        return { kind: 'disconnects', meta, list: new DisconnectList({ version, asOf, from, size, buffer }) };
      }
      const { buffers } = meta;
      const table = ExchangeTable.fromShared({
        // A table written by another engine version is refused here, by its format.
        format: meta.table.format as SharedExchangeTable['format'],
        version: meta.version,
        source: 'imported',
        stats: meta.table.stats,
        exchanges: await read(buffers.exchanges),
        blocks: await readOptional(buffers.blocks),
        numberStart: await readOptional(buffers.numberStart),
        numberLines: await readOptional(buffers.numberLines),
        numberAnswers: await readOptional(buffers.numberAnswers),
      });
      return { kind: 'exchange', meta, table };
    } catch (error) {
      if (error instanceof DatasetStoreError) throw error;
      throw new DatasetStoreError(`${join(this.dir, dir)} cannot be loaded: ${(error as Error).message}`);
    }
  }

  /**
   * Runs one import holding the store's lock: `work` reads the manifest it is given and returns the
   * next one, which replaces it. The lock spans the whole import, not only the manifest's
   * replacement: a change list or a new exchange part is applied to the live version, which must
   * not change meanwhile, and pruning must not delete a version another import is writing.
   */
  async update<T>(
    work: (manifest: Manifest) => Promise<{ manifest: Manifest; result: T }>,
    onWait: () => void = () => {},
  ): Promise<T> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const lock: { lost: Error | null } = { lost: null };
    const options = {
      realpath: false,
      lockfilePath: join(this.dir, 'import.lock'),
      stale: LOCK_STALE_MS,
      update: LOCK_UPDATE_MS,
      onCompromised: (error: Error) => {
        lock.lost = error;
      },
    };
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(this.dir, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      onWait();
      release = await lockfile.lock(this.dir, { ...options, retries: LOCK_WAIT });
    }
    try {
      const { manifest, result } = await work(await this.readManifest());
      if (lock.lost !== null) {
        throw new DatasetStoreError(
          `Lost the import lock (${lock.lost.message}): nothing was changed. Run the import again.`,
        );
      }
      await writeFileAtomic(
        this.manifestPath,
        `${JSON.stringify({ ...manifest, updatedAt: new Date().toISOString() }, null, 2)}\n`,
      );
      await this.#prune(manifest);
      return result;
    } finally {
      await release().catch(() => {});
    }
  }

  /** A new, empty directory for a version of `dataset`; its path relative to the store. */
  async newVersionDir(dataset: string): Promise<string> {
    return this.#newDir(`versions/${dataset.replace(':', '-')}`);
  }

  /** A new, empty directory for staged exchange parts. */
  async newStagedDir(): Promise<string> {
    return this.#newDir('staged');
  }

  async #newDir(parent: string): Promise<string> {
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const path = `${parent}/${stamp}-${randomBytes(4).toString('hex')}`;
    await mkdir(join(this.dir, path), { recursive: true, mode: 0o700 });
    return path;
  }

  /** Writes an exchange table's buffers and meta into a new version directory (see `newVersionDir`). */
  async writeExchange(
    dir: string,
    table: ExchangeTable,
    sources: ExchangeMeta['sources'],
    importedAt: string,
  ): Promise<ExchangeMeta> {
    const shared = table.toShared();
    const write = (file: string, buffer: SharedArrayBuffer | null) =>
      buffer === null ? null : this.#writeBuffer(dir, file, buffer);
    const meta: ExchangeMeta = {
      format: VERSION_FORMAT,
      kind: 'exchange',
      dataset: EXCHANGE,
      version: shared.version,
      importedAt,
      table: { format: shared.format, stats: shared.stats },
      buffers: {
        exchanges: await this.#writeBuffer(dir, 'exchanges.bin', shared.exchanges),
        blocks: await write('blocks.bin', shared.blocks),
        numberStart: await write('number-start.bin', shared.numberStart),
        numberLines: await write('number-lines.bin', shared.numberLines),
        numberAnswers: await write('number-answers.bin', shared.numberAnswers),
      },
      sources,
    };
    await this.#writeMeta(dir, meta);
    return meta;
  }

  /** Writes a DNC list's buffer and meta into a new version directory (see `newVersionDir`). */
  async writeDnc(
    dir: string,
    list: DncList,
    about: { imports: ImportSummary[]; account?: DncMeta['account']; ftcAccount?: string },
    importedAt: string,
  ): Promise<DncMeta> {
    const meta: DncMeta = {
      format: VERSION_FORMAT,
      kind: 'dnc',
      dataset: list.name,
      version: list.version,
      importedAt,
      ...(list.releasedOn === null ? {} : { releasedOn: list.releasedOn }),
      list: { size: list.size, exchanges: list.exchanges },
      buffer: await this.#writeBuffer(dir, 'list.bin', list.buffer),
      ...about,
    };
    await this.#writeMeta(dir, meta);
    return meta;
  }

  /** Writes a disconnect list's buffer and meta into a new version directory (see `newVersionDir`). */
  async writeDisconnects(
    dir: string,
    list: DisconnectList,
    imports: ImportSummary[],
    importedAt: string,
  ): Promise<DisconnectsMeta> {
    const meta: DisconnectsMeta = {
      format: VERSION_FORMAT,
      kind: 'disconnects',
      dataset: DISCONNECTS,
      version: list.version,
      importedAt,
      asOf: list.asOf,
      from: list.from,
      size: list.size,
      buffer: await this.#writeBuffer(dir, 'disconnects.bin', list.buffer),
      imports,
    };
    await this.#writeMeta(dir, meta);
    return meta;
  }

  /** Writes a buffer, synced to disk, and says how to check it when it is read back. */
  async #writeBuffer(dir: string, file: string, buffer: ArrayBufferLike): Promise<BufferFile> {
    const bytes = new Uint8Array(buffer);
    const handle = await open(join(this.dir, dir, file), 'wx', 0o600);
    let crc = 0;
    try {
      for (let at = 0; at < bytes.length; ) {
        const piece = bytes.subarray(at, Math.min(at + IO_CHUNK, bytes.length));
        const { bytesWritten } = await handle.write(piece, 0, piece.length, at);
        crc = crc32(piece.subarray(0, bytesWritten), crc);
        at += bytesWritten;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { file, bytes: bytes.length, crc32: crc };
  }

  /** The meta file goes last: from then on the version is complete and may go live. */
  async #writeMeta(dir: string, meta: VersionMeta): Promise<void> {
    await writeFileAtomic(
      join(this.dir, dir, META_FILE),
      `${JSON.stringify(VersionMeta.parse(meta), null, 2)}\n`,
    );
  }

  /**
   * Keeps a source file at `path` (relative to the store): a copy of the operator's file (never a
   * link to it: they may edit it later), or a hard link to one the store already keeps, which
   * never changes.
   */
  async keepFile(from: string, path: string, options: { ours: boolean }): Promise<void> {
    const to = join(this.dir, path);
    await mkdir(dirname(to), { recursive: true, mode: 0o700 });
    if (options.ours) {
      try {
        await link(join(this.dir, from), to);
        return;
      } catch {
        // Links not supported here: copy instead.
      }
      await copyFile(join(this.dir, from), to, constants.COPYFILE_FICLONE);
      return;
    }
    await copyFile(from, to, constants.COPYFILE_FICLONE);
  }

  /** The absolute path of a file the store keeps. */
  pathOf(path: string): string {
    return join(this.dir, path);
  }

  /** Deletes every version and staged directory the manifest does not name: older versions, and what failed imports left. */
  async #prune(manifest: Manifest): Promise<void> {
    const keep = new Set<string>();
    for (const { live, previous } of Object.values(manifest.datasets)) {
      keep.add(live);
      if (previous !== null) keep.add(previous);
    }
    for (const source of Object.values(manifest.staged))
      keep.add(source.path.split('/').slice(0, 2).join('/'));
    const candidates: string[] = [];
    for (const dataset of await listDir(join(this.dir, 'versions'))) {
      for (const id of await listDir(join(this.dir, 'versions', dataset)))
        candidates.push(`versions/${dataset}/${id}`);
    }
    for (const id of await listDir(join(this.dir, 'staged'))) candidates.push(`staged/${id}`);
    for (const path of candidates) {
      if (!keep.has(path)) await rm(join(this.dir, path), { recursive: true, force: true });
    }
  }
}

async function listDir(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function readBuffer(path: string, expected: BufferFile): Promise<SharedArrayBuffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size !== expected.bytes) {
      throw new DatasetStoreError(`${path} holds ${size} bytes where its version says ${expected.bytes}`);
    }
    const buffer = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(buffer);
    let crc = 0;
    for (let at = 0; at < size; ) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(IO_CHUNK, size - at), at);
      if (bytesRead === 0) throw new DatasetStoreError(`${path} ended early`);
      crc = crc32(bytes.subarray(at, at + bytesRead), crc);
      at += bytesRead;
    }
    if (crc !== expected.crc32) throw new DatasetStoreError(`${path} is damaged (CRC-32 mismatch)`);
    return buffer;
  } finally {
    await handle.close();
  }
}
