import { Writable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

/** S3 takes parts of 5 MiB or more but the last, and at most 10,000 of them: 78 GiB at 8 MiB. */
const PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;

export interface S3Target {
  Bucket: string;
  Key: string;
  ContentType: string;
}

/**
 * A stream into an S3 object: bytes gather in a part buffer, each full part goes up while the
 * next fills the other buffer, and the object appears whole when the stream ends (a small one in a
 * single PUT, a large one as a multipart upload, completed then). Destroyed before that, the
 * multipart upload is aborted and S3 shows nothing. Two buffers serve the whole stream, and a
 * chunk is copied in before its write callback runs: the caller may reuse or free it then.
 */
export class S3MultipartWriter extends Writable {
  bytesWritten = 0;
  #filling: Buffer | null = null;
  #spare: Buffer | null = null;
  #filled = 0;
  #partNumber = 0;
  readonly #parts: { ETag: string; PartNumber: number }[] = [];
  #uploadId: Promise<string> | null = null;
  /** The part under way: its buffer is the next to fill. */
  #sending: Promise<void> | null = null;

  constructor(
    private readonly client: S3Client,
    private readonly target: S3Target,
  ) {
    super({ highWaterMark: 1 << 20 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#take(chunk).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#finish().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const uploadId = this.#uploadId;
    if (uploadId && !this.writableFinished) {
      const { Bucket, Key } = this.target;
      uploadId
        .then((UploadId) => this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })))
        .catch(() => {});
    }
    callback(error);
  }

  async #take(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length; ) {
      this.#filling ??= Buffer.allocUnsafeSlow(PART_BYTES);
      const copied = chunk.copy(this.#filling, this.#filled, at);
      this.#filled += copied;
      this.bytesWritten += copied;
      at += copied;
      if (this.#filled === PART_BYTES) await this.#send();
    }
  }

  /** Sends what has filled as the next part, once the part before it is up. */
  async #send(): Promise<void> {
    await this.#sending;
    if (++this.#partNumber > MAX_PARTS) {
      throw new Error(
        `The file is larger than ${(MAX_PARTS * PART_BYTES) / 2 ** 30} GiB, the most an S3 upload of ${PART_BYTES / 2 ** 20} MiB parts can hold`,
      );
    }
    const body = this.#filling!.subarray(0, this.#filled);
    [this.#filling, this.#spare] = [this.#spare, this.#filling];
    this.#filled = 0;
    const sending = this.#uploadPart(this.#partNumber, body);
    // Awaited by the next part or the end; a failure meanwhile must not go unhandled.
    sending.catch(() => {});
    this.#sending = sending;
  }

  async #uploadPart(PartNumber: number, Body: Buffer): Promise<void> {
    const { Bucket, Key, ContentType } = this.target;
    this.#uploadId ??= this.client
      .send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }))
      .then(({ UploadId }) => UploadId!);
    const UploadId = await this.#uploadId;
    const { ETag } = await this.client.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body }),
    );
    this.#parts.push({ ETag: ETag!, PartNumber });
  }

  async #finish(): Promise<void> {
    const { Bucket, Key } = this.target;
    if (this.#partNumber === 0) {
      const Body = this.#filling?.subarray(0, this.#filled) ?? Buffer.alloc(0);
      await this.client.send(new PutObjectCommand({ ...this.target, Body }));
      return;
    }
    if (this.#filled > 0) await this.#send();
    await this.#sending;
    const UploadId = await this.#uploadId!;
    const Parts = this.#parts.sort((a, b) => a.PartNumber - b.PartNumber);
    await this.client.send(
      new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }),
    );
  }
}
