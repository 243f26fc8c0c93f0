import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertValidKey,
  type BlobStore,
  type BlobStoreTarget,
  type ByteRange,
  type StoredFile,
  type StoredPart,
  type UploadUrl,
  type UploadUrlOptions,
} from './blob-store.js';
import { S3MultipartWriter } from './s3-multipart-writer.js';

const isMissing = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Files in an S3 bucket (or an S3-compatible store), with credentials from the AWS default chain
 * (environment, shared config, container or instance role). Clients upload with presigned PUT
 * URLs; results go up as multipart uploads, which S3 makes visible only once complete.
 */
export class S3BlobStore implements BlobStore {
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(target: Extract<BlobStoreTarget, { kind: 's3' }>) {
    this.#bucket = target.bucket;
    this.#client = new S3Client({
      region: target.region,
      endpoint: target.endpoint ?? undefined,
      forcePathStyle: target.forcePathStyle,
      // Newer SDKs add CRC checksums to every upload, which a presigned URL would pin to an empty
      // body and which not every S3-compatible store understands; S3 asks only where it needs them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * A presigned PUT with the Content-Type signed in, so S3 refuses any other type (403). A PUT URL
   * cannot carry a size limit (only presigned POST policies can), and S3 lets it be used again
   * until it expires: callers check the size with `stat` before using an upload.
   */
  async createUploadUrl(key: string, options: UploadUrlOptions): Promise<UploadUrl> {
    assertValidKey(key);
    const url = await getSignedUrl(
      this.#client,
      new PutObjectCommand({ Bucket: this.#bucket, Key: key, ContentType: options.contentType }),
      { expiresIn: options.expiresInSeconds, signableHeaders: new Set(['content-type']) },
    );
    return { url, expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000) };
  }

  async stat(key: string): Promise<StoredFile | null> {
    assertValidKey(key);
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range: ByteRange = {}): Promise<Readable | null> {
    assertValidKey(key);
    const { start, end } = range;
    const bytes = start === undefined && end === undefined ? undefined : `bytes=${start ?? 0}-${end ?? ''}`;
    try {
      const object = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: key, Range: bytes }),
      );
      if (!(object.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a body stream`);
      return object.Body;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async write(key: string, body: Readable, contentType: string): Promise<{ size: number }> {
    const writer = this.createWriteStream(key, contentType);
    await pipeline(body, writer);
    return { size: writer.bytesWritten };
  }

  createWriteStream(key: string, contentType: string): S3MultipartWriter {
    assertValidKey(key);
    return new S3MultipartWriter(this.#client, { Bucket: this.#bucket, Key: key, ContentType: contentType });
  }

  /** A multipart upload: the client PUTs parts to presigned URLs; S3 shows the object only once completed. */
  async startParts(key: string, contentType: string): Promise<string> {
    assertValidKey(key);
    const started = await this.#client.send(
      new CreateMultipartUploadCommand({ Bucket: this.#bucket, Key: key, ContentType: contentType }),
    );
    if (!started.UploadId) throw new Error(`S3 started no multipart upload for ${key}`);
    return started.UploadId;
  }

  /** A presigned UploadPart: it cannot carry a size limit, so parts are checked before completing. */
  async partUploadUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: Omit<UploadUrlOptions, 'contentType'>,
  ): Promise<UploadUrl> {
    assertValidKey(key);
    const url = await getSignedUrl(
      this.#client,
      new UploadPartCommand({ Bucket: this.#bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      { expiresIn: options.expiresInSeconds },
    );
    return { url, expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000) };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[] | null> {
    assertValidKey(key);
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const page = await this.#client.send(
          new ListPartsCommand({
            Bucket: this.#bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        );
        for (const part of page.Parts ?? []) {
          parts.push({ partNumber: part.PartNumber ?? 0, size: part.Size ?? 0, etag: part.ETag ?? '' });
        }
        if (!page.IsTruncated) break;
        marker = page.NextPartNumberMarker;
      }
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeParts(key: string, uploadId: string, parts: StoredPart[]): Promise<void> {
    assertValidKey(key);
    const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    await this.#client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.#bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: ordered.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
      }),
    );
  }

  async abortParts(key: string, uploadId: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.#client.send(
        new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  /** Whether the bucket answers: a missing probe object is an answer. */
  async probe(): Promise<boolean> {
    try {
      await this.stat('health/probe');
      return true;
    } catch {
      return false;
    }
  }

  /** Closes the client's pooled connections. */
  close(): void {
    this.#client.destroy();
  }
}
