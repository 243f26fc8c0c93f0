import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../errors/api-error.js';
import { isAlive } from '../process-alive.js';
import { AtomicFileWriter } from './atomic-file-writer.js';
import {
  assertValidKey,
  type BlobStore,
  type ByteRange,
  type StoredFile,
  type StoredPart,
  type UploadUrl,
  type UploadUrlOptions,
} from './blob-store.js';
import { grantQuery, loadOrCreateSecret, type UploadGrant, verifyGrant } from './upload-grant.js';

/** Where upload URLs point; the route that answers them is in upload-route.ts. */
export const UPLOAD_PATH = '/uploads/';

/**
 * Beside the files, under names no key can take (keys start with a letter or digit): files being
 * written, on the same file system so that moving them into place is atomic; content types; the
 * secret that signs upload URLs.
 */
const SCRATCH = '.tmp';

/**
 * Scratch files are named after the process writing them (pid and a token of this run, since a
 * restarted container gets its old pid back), so a later start knows which are orphans.
 */
const WRITER = `${process.pid}.${randomUUID().slice(0, 8)}`;

function writerIsRunning(scratchName: string): boolean {
  const [pid, run] = scratchName.split('-')[0]?.split('.') ?? [];
  if (!pid || !run) return true;
  if (`${pid}.${run}` === WRITER) return true;
  return Number(pid) !== process.pid && isAlive(Number(pid));
}
const META = '.meta';
/** Uploads in parts, a folder each: `upload.json` (its key and type) and one file a part, named by number. */
const PARTS = '.parts';
const PARTS_UPLOAD = 'upload.json';
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = '.upload-signing-key';

const isMissing = (error: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

export function uploadTooLarge(maxBytes: number): ApiError {
  return new ApiError(
    'payload_too_large',
    `The file is larger than the upload limit of ${formatBytes(maxBytes)} (${maxBytes} bytes).`,
  );
}

export const alreadyUsed = () =>
  new ApiError(
    'conflict',
    'This upload URL has already been used: a file was received through it. Upload URLs work once; ask for a new one to upload another file.',
  );

const interrupted = () =>
  new ApiError('bad_request', 'The upload ended before the whole file arrived. Send it again.');

const uploadClosed = () =>
  new ApiError(
    'not_found',
    'This upload is no longer open: it was completed, or abandoned and removed. Start a new upload.',
  );

/** Pipes an upload's body into `file`, refusing it (413) once it passes `maxBytes`; answers its size and MD5. */
async function receiveBody(
  body: Readable,
  maxBytes: number,
  file: AtomicFileWriter,
): Promise<{ size: number; md5: string }> {
  const md5 = createHash('md5');
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(uploadTooLarge(maxBytes));
      md5.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(body, limit, file).catch((error) => {
    // The client went away mid-body: nobody will read the answer, but it is no server fault.
    throw (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? interrupted() : error;
  });
  return { size, md5: md5.digest('hex') };
}

/**
 * Files in a directory of this machine (`<data dir>/files`), uploaded through URLs this server
 * signs and serves. Every write goes to a scratch file first and is moved into place only when
 * complete, so a broken upload or a crash leaves no partial file under a key.
 */
export class LocalBlobStore implements BlobStore {
  readonly #dir: string;
  readonly #publicUrl: () => string;
  #secret: Promise<Buffer> | undefined;

  constructor({ dir, publicUrl }: { dir: string; publicUrl: () => string }) {
    this.#dir = dir;
    this.#publicUrl = publicUrl;
  }

  async createUploadUrl(key: string, options: UploadUrlOptions): Promise<UploadUrl> {
    assertValidKey(key);
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    const query = grantQuery(await this.#signingSecret(), {
      key,
      expires,
      maxBytes: options.maxBytes,
      contentType: options.contentType,
    });
    return { url: `${this.#publicUrl()}${UPLOAD_PATH}${key}?${query}`, expiresAt: new Date(expires * 1000) };
  }

  /** What the upload URL with this key and query allows; 403 when it was altered or has expired. */
  async grantFor(key: string, query: Record<string, unknown>): Promise<UploadGrant> {
    return verifyGrant(await this.#signingSecret(), key, query);
  }

  /** Whether the key already has its file, which spends every upload URL for it. */
  async uploaded(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  /**
   * Receives an upload's body: 413 as soon as it passes the grant's limit, 409 when another upload
   * to the key finished first. Returns the MD5 that S3 would answer as ETag.
   */
  async receive(grant: UploadGrant, body: Readable): Promise<{ size: number; md5: string }> {
    const file = new AtomicFileWriter(this.#scratchFile(), async (scratch) => {
      await this.#writeContentType(grant.key, grant.contentType);
      await this.#linkIntoPlace(scratch, grant.key);
    });
    return receiveBody(body, grant.maxBytes, file);
  }

  /**
   * Receives one part of an upload in parts, replacing any copy of it received before (a part
   * sent again after a broken connection); 404 when the upload was completed or abandoned.
   */
  async receivePart(grant: UploadGrant, body: Readable): Promise<{ size: number; md5: string }> {
    const part = grant.part;
    if (!part || !(await this.#partsUpload(grant.key, part.uploadId))) throw uploadClosed();
    const file = new AtomicFileWriter(this.#scratchFile(), async (scratch) => {
      await rename(scratch, join(this.#partsDir(part.uploadId), String(part.partNumber))).catch((error) => {
        throw isMissing(error) ? uploadClosed() : error;
      });
    });
    return receiveBody(body, grant.maxBytes, file);
  }

  async startParts(key: string, contentType: string): Promise<string> {
    assertValidKey(key);
    const uploadId = randomUUID();
    const dir = this.#partsDir(uploadId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, PARTS_UPLOAD), JSON.stringify({ key, contentType }), { mode: 0o600 });
    return uploadId;
  }

  async partUploadUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: Omit<UploadUrlOptions, 'contentType'>,
  ): Promise<UploadUrl> {
    assertValidKey(key);
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    const query = grantQuery(await this.#signingSecret(), {
      key,
      expires,
      maxBytes: options.maxBytes,
      contentType: '',
      part: { uploadId, partNumber },
    });
    return { url: `${this.#publicUrl()}${UPLOAD_PATH}${key}?${query}`, expiresAt: new Date(expires * 1000) };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[] | null> {
    if (!(await this.#partsUpload(key, uploadId))) return null;
    const dir = this.#partsDir(uploadId);
    const names = (await readdir(dir).catch(() => [])).filter((name) => /^[0-9]+$/.test(name));
    const parts: StoredPart[] = [];
    for (const name of names) {
      const info = await stat(join(dir, name)).catch(() => null);
      if (info) parts.push({ partNumber: Number(name), size: info.size, etag: '' });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeParts(key: string, uploadId: string, parts: StoredPart[]): Promise<void> {
    const upload = await this.#partsUpload(key, uploadId);
    if (!upload) throw uploadClosed();
    const dir = this.#partsDir(uploadId);
    const file = new AtomicFileWriter(this.#scratchFile(), async (scratch) => {
      await this.#writeContentType(key, upload.contentType);
      await this.#linkIntoPlace(scratch, key);
    });
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    async function* partBytes() {
      for (const part of ordered)
        yield* createReadStream(join(dir, String(part.partNumber)), { highWaterMark: 1 << 20 });
    }
    await pipeline(partBytes, file);
    await rm(dir, { recursive: true, force: true });
  }

  async abortParts(_key: string, uploadId: string): Promise<void> {
    await rm(this.#partsDir(uploadId), { recursive: true, force: true });
  }

  async stat(key: string): Promise<StoredFile | null> {
    assertValidKey(key);
    try {
      const info = await stat(this.#path(key));
      if (!info.isFile()) return null;
      return { size: info.size, contentType: await this.#contentType(key) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range: ByteRange = {}): Promise<Readable | null> {
    assertValidKey(key);
    // Opened here rather than by the stream, so that a missing file is null and not a stream error.
    const handle = await open(this.#path(key), 'r').catch((error) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!handle) return null;
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return null;
    }
    // 1 MiB reads: with the default 64 KiB, scrubbing a file spends a fifth of its time waiting on them.
    return handle.createReadStream({ start: range.start, end: range.end, highWaterMark: 1 << 20 });
  }

  async write(key: string, body: Readable, contentType: string): Promise<{ size: number }> {
    const writer = this.createWriteStream(key, contentType);
    await pipeline(body, writer);
    return { size: writer.bytesWritten };
  }

  createWriteStream(key: string, contentType: string): AtomicFileWriter {
    assertValidKey(key);
    return new AtomicFileWriter(this.#scratchFile(), async (scratch) => {
      await this.#writeContentType(key, contentType);
      const path = this.#path(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await rename(scratch, path);
    });
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await rm(this.#path(key), { force: true });
    await rm(this.#metaPath(key), { force: true });
  }

  /** Removes scratch files older than `ageMs`: what uploads and writes cut short by a crash left behind. */
  /**
   * Removes partial files: those of processes that are gone (a crash or a full disk mid-upload),
   * and any older than `ageMs`. A store that cannot be read now is left to /health to report.
   */
  async sweepScratch(ageMs: number): Promise<void> {
    const dir = join(this.#dir, SCRATCH);
    const names = await readdir(dir).catch(() => []);
    const cutoff = Date.now() - ageMs;
    for (const name of names) {
      const info = await stat(join(dir, name)).catch(() => null);
      if (info && (info.mtimeMs < cutoff || !writerIsRunning(name)))
        await rm(join(dir, name), { force: true });
    }
  }

  /** Whether a small file can be written and removed now: false on a full or read-only disk. */
  async probe(): Promise<boolean> {
    try {
      const scratch = await this.#scratchFile();
      await writeFile(scratch, 'probe', { mode: 0o600 });
      await rm(scratch, { force: true });
      return true;
    } catch {
      return false;
    }
  }

  /** A link fails where a file exists: of two uploads racing to one key, exactly one lands. */
  async #linkIntoPlace(scratch: string, key: string): Promise<void> {
    const path = this.#path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await link(scratch, path).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? alreadyUsed() : error;
    });
  }

  #partsDir(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw uploadClosed();
    return join(this.#dir, PARTS, uploadId);
  }

  /** The upload in parts with this id, if it is still open and is for `key`. */
  async #partsUpload(key: string, uploadId: string): Promise<{ contentType: string } | null> {
    if (!UPLOAD_ID.test(uploadId)) return null;
    try {
      const upload = JSON.parse(await readFile(join(this.#partsDir(uploadId), PARTS_UPLOAD), 'utf8')) as {
        key: string;
        contentType: string;
      };
      return upload.key === key ? upload : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  #path(key: string): string {
    return join(this.#dir, key);
  }

  #metaPath(key: string): string {
    return join(this.#dir, META, `${key}.json`);
  }

  async #scratchDir(): Promise<string> {
    const dir = join(this.#dir, SCRATCH);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  async #scratchFile(): Promise<string> {
    return join(await this.#scratchDir(), `${WRITER}-${randomUUID()}`);
  }

  async #writeContentType(key: string, contentType: string): Promise<void> {
    const path = this.#metaPath(key);
    const scratch = await this.#scratchFile();
    await writeFile(scratch, JSON.stringify({ contentType }), { mode: 0o600 });
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await rename(scratch, path);
  }

  async #contentType(key: string): Promise<string> {
    try {
      return (JSON.parse(await readFile(this.#metaPath(key), 'utf8')) as { contentType: string }).contentType;
    } catch (error) {
      if (isMissing(error)) return 'application/octet-stream';
      throw error;
    }
  }

  /** Read once per process; a failure (a read-only disk, say) is tried again on the next call. */
  #signingSecret(): Promise<Buffer> {
    this.#secret ??= this.#scratchDir()
      .then((scratch) => loadOrCreateSecret(join(this.#dir, SECRET), scratch))
      .catch((error) => {
        this.#secret = undefined;
        throw error;
      });
    return this.#secret;
  }
}
