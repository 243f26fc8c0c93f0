import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../errors/api-error.js';

/** What a local upload URL allows: one file under `key`, of this type and at most this size, until `expires`. */
export interface UploadGrant {
  key: string;
  /** Unix time, seconds. */
  expires: number;
  maxBytes: number;
  contentType: string;
  /** For one part of an upload in parts: which upload, which part (any Content-Type, as S3's part URLs). */
  part?: { uploadId: string; partNumber: number };
}

function signature(secret: Buffer, grant: UploadGrant): Buffer {
  const terms = ['PUT', grant.key, grant.expires, grant.maxBytes, grant.contentType];
  // Signed only when there: a whole-file URL's signature stays what it always was.
  if (grant.part) terms.push('part', grant.part.uploadId, grant.part.partNumber);
  const signed = terms.join('\n');
  return createHmac('sha256', secret).update(signed).digest();
}

/** The query string that carries a grant: readable terms, and a signature over them and the key. */
export function grantQuery(secret: Buffer, grant: UploadGrant): string {
  return new URLSearchParams({
    expires: String(grant.expires),
    max_bytes: String(grant.maxBytes),
    content_type: grant.contentType,
    ...(grant.part && { upload_id: grant.part.uploadId, part_number: String(grant.part.partNumber) }),
    signature: signature(secret, grant).toString('base64url'),
  }).toString();
}

const altered = () =>
  new ApiError(
    'forbidden',
    'This upload URL is not valid: it is incomplete or has been altered. Use the upload URL exactly as the API returned it.',
  );

/**
 * The grant a request's key and query carry, if the signature holds and it has not expired; else
 * 403, as S3 answers a bad or expired presigned URL.
 */
export function verifyGrant(secret: Buffer, key: string, query: Record<string, unknown>): UploadGrant {
  const { expires, max_bytes, content_type, upload_id, part_number, signature: given } = query;
  if (![expires, max_bytes, content_type, given].every((v) => typeof v === 'string')) throw altered();
  const grant: UploadGrant = {
    key,
    expires: Number(expires),
    maxBytes: Number(max_bytes),
    contentType: content_type as string,
  };
  if (typeof upload_id === 'string' && typeof part_number === 'string') {
    grant.part = { uploadId: upload_id, partNumber: Number(part_number) };
  } else if (upload_id !== undefined || part_number !== undefined) {
    throw altered();
  }
  const expected = signature(secret, grant);
  const actual = Buffer.from(given as string, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw altered();
  if (Date.now() / 1000 > grant.expires) {
    throw new ApiError(
      'forbidden',
      `This upload URL expired at ${new Date(grant.expires * 1000).toISOString()}. Ask for a new upload URL.`,
    );
  }
  return grant;
}

/**
 * The install's signing secret, made on first use. It appears complete or not at all (written
 * aside, then linked into place, which fails if another process got there first), so processes
 * sharing the data directory agree on one secret: URLs one issues, another honours.
 */
export async function loadOrCreateSecret(path: string, scratchDir: string): Promise<Buffer> {
  const scratch = join(scratchDir, randomUUID());
  await writeFile(scratch, randomBytes(32).toString('base64url'), { mode: 0o600 });
  try {
    await link(scratch, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(scratch, { force: true });
  }
  const secret = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64url');
  if (secret.length !== 32) {
    throw new Error(`The upload signing secret in ${path} is damaged: delete it, and a new one is made.`);
  }
  return secret;
}
