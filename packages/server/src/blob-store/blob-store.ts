import type { Readable, Writable } from 'node:stream';
import type { BlobStoreTarget } from '../config/targets.js';

export type { BlobStoreTarget };

export interface UploadUrlOptions {
  expiresInSeconds: number;
  /** Enforced while the local store receives the file; S3 cannot refuse by size, so callers check `stat` before use. */
  maxBytes: number;
  /** The one Content-Type the upload must carry, exactly (S3 signs it into the URL). */
  contentType: string;
}

export interface UploadUrl {
  url: string;
  expiresAt: Date;
}

export interface StoredFile {
  size: number;
  contentType: string;
}

/** Inclusive byte offsets, as in HTTP Range and `fs.createReadStream`; both within the file. */
export interface ByteRange {
  start?: number;
  end?: number;
}

/** One part of an upload in parts, as the store holds it. */
export interface StoredPart {
  partNumber: number;
  size: number;
  /** What completing needs to name the part (S3's ETag; empty for the local store). */
  etag: string;
}

/**
 * A file uploaded in numbered parts, each to its own signed URL, then put together at once (S3's
 * multipart upload, or the local store's parts folder). The caller checks the parts before
 * completing: S3 cannot refuse a part by size.
 */
export interface PartUploads {
  /** Starts an upload in parts of the file to be stored under `key`; answers the store's id for it. */
  startParts(key: string, contentType: string): Promise<string>;
  /** A URL to `PUT` one part's bytes to (at most `maxBytes`), until it expires. */
  partUploadUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: Omit<UploadUrlOptions, 'contentType'>,
  ): Promise<UploadUrl>;
  /** The parts received so far, by number; null when there is no such upload (completed or aborted). */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | null>;
  /** Puts the parts together, in order, as the file under `key`: readers see all of it or none. */
  completeParts(key: string, uploadId: string, parts: StoredPart[]): Promise<void>;
  /** Removes an unfinished upload's parts; an upload no longer there is not an error. */
  abortParts(key: string, uploadId: string): Promise<void>;
}

/**
 * Uploaded CSVs and result files. Clients upload straight to the store through a signed URL (the
 * API never holds a large body in memory); the server writes results as streams. Keys are made by
 * the server, never taken from a client.
 */
export interface BlobStore extends PartUploads {
  /** A URL to `PUT` the file to until it expires: once (local), or again and again, each replacing the last (S3). */
  createUploadUrl(key: string, options: UploadUrlOptions): Promise<UploadUrl>;
  /** Size and type of a complete file; null when there is none. */
  stat(key: string): Promise<StoredFile | null>;
  /** The file's bytes, or a range of them; null when there is no such file. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Stores the stream under `key`, replacing any file there; readers see the old file or the whole new one, never a part. */
  write(key: string, body: Readable, contentType: string): Promise<{ size: number }>;
  /**
   * `write` as a stream to write to: the file is in place once the stream has finished, and a
   * stream destroyed before leaves none. A write's callback runs once the store no longer holds
   * the chunk, so that a writer may free or reuse it (a PassThrough in between would still hold it).
   */
  createWriteStream(key: string, contentType: string): Writable;
  /** Removes the file; a key with no file is not an error. */
  delete(key: string): Promise<void>;
  /** Whether the store can be used right now (for /health); never throws. */
  probe(): Promise<boolean>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Keys become file paths and object names: relative, `/`-separated segments of letters, digits,
 * `.`, `_` and `-`, each starting with a letter or digit. That rules out `..`, absolute paths and
 * the local store's own dot-directories, and needs no escaping in a URL.
 */
export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= 512 && key.split('/').every((segment) => SEGMENT.test(segment));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid file key ${JSON.stringify(key)}`);
}
