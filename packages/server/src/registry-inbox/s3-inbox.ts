import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { RegistryInboxTarget } from '../config/registry-inbox-settings.js';
import { hashingTap } from './folder-inbox.js';
import { type AsideFolder, asideName, type InboxEntry, type InboxFolder } from './inbox-folder.js';

type S3Target = Extract<RegistryInboxTarget, { kind: 's3' }>;

const isMissing = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** A client for the inbox's bucket, set as the files' bucket's is. */
export function s3ClientOf(target: S3Target): S3Client {
  return new S3Client({
    region: target.region,
    endpoint: target.endpoint ?? undefined,
    forcePathStyle: target.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * The registry inbox as a prefix of an S3 bucket (production): the objects right under the prefix
 * wait; `imported/` and `rejected/` under it hold those done with. Credentials come from the AWS
 * default chain, as for the files' bucket (blob-store/s3-blob-store.ts).
 */
export class S3Inbox implements InboxFolder {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  /** `client`: the one to use instead of a client made from `target` (tests). */
  constructor(target: S3Target, client: S3Client = s3ClientOf(target)) {
    this.#bucket = target.bucket;
    this.#prefix = target.prefix;
    this.#client = client;
  }

  get where(): string {
    return `s3://${this.#bucket}/${this.#prefix}`;
  }

  async list(signal: AbortSignal): Promise<InboxEntry[]> {
    const files: InboxEntry[] = [];
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          Prefix: this.#prefix,
          ContinuationToken: token,
        }),
        { abortSignal: signal },
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(this.#prefix.length) ?? '';
        // Only what is right under the prefix: not imported/ and rejected/.
        if (name !== '' && !name.includes('/'))
          files.push({ name, modifiedAt: object.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return files;
  }

  async fetch(name: string, to: string, signal: AbortSignal): Promise<{ sha256: string; bytes: number }> {
    const object = await this.#client.send(
      new GetObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + name }),
      { abortSignal: signal },
    );
    if (!(object.Body instanceof Readable)) throw new Error(`S3 answered ${name} without a body stream`);
    const { tap, result } = hashingTap();
    await pipeline(object.Body, tap, createWriteStream(to, { mode: 0o600 }), { signal });
    return result();
  }

  async moveAside(
    name: string,
    to: AsideFolder,
    reason: string | null,
    signal: AbortSignal,
  ): Promise<string> {
    const from = this.#prefix + name;
    const target = `${this.#prefix}${to}/${asideName(name, await this.#exists(`${this.#prefix}${to}/${name}`, signal))}`;
    const options = { abortSignal: signal };
    if (reason !== null) {
      await this.#client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: `${target}.reason.txt`,
          Body: `${reason}\n`,
          ContentType: 'text/plain; charset=utf-8',
        }),
        options,
      );
    }
    const source = `${this.#bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.#client.send(
      new CopyObjectCommand({ Bucket: this.#bucket, Key: target, CopySource: source }),
      options,
    );
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: from }), options);
    return `s3://${this.#bucket}/${target}`;
  }

  async #exists(key: string, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }), {
        abortSignal: signal,
      });
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  close(): void {
    this.#client.destroy();
  }
}
