import { randomBytes } from 'node:crypto';
import type { CreatedDncImport, DncImportMode } from '@scrub/contract';
import type { Kysely, Selectable } from 'kysely';
import type { BlobStore } from '../blob-store/blob-store.js';
import { grantUpload, requireUploaded } from '../bulk/upload-grant.js';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Database, SuppressionImportsTable } from '../storage/schema.js';

export type SuppressionImportRow = Selectable<SuppressionImportsTable>;

/** How long after its upload URL expired an import never submitted is kept, with its file. */
const KEPT_AFTER_EXPIRY_MS = 86_400_000;

/** How many stale imports one sweep removes; the next sweep takes the rest. */
const BATCH = 500;

/**
 * Starts an import by upload: records how to read the file, and answers the signed URL to PUT it
 * to (the bulk files' upload grant, the same limits).
 */
export async function startSuppressionImport(
  db: Kysely<Database>,
  blobStore: BlobStore,
  config: Pick<ServerConfig, 'uploadUrlTtlSeconds' | 'maxUploadBytes'>,
  input: { profileId: string; mode: DncImportMode; phoneCol: string | number; header: boolean | undefined },
): Promise<CreatedDncImport> {
  const id = `dni_${randomBytes(12).toString('hex')}`;
  const uploadKey = `suppression-imports/${randomBytes(24).toString('hex')}.csv`;
  const grant = await grantUpload(blobStore, config, uploadKey);
  await db
    .insertInto('suppression_imports')
    .values({
      id,
      profile_id: input.profileId,
      mode: input.mode,
      phone_col: JSON.stringify(input.phoneCol),
      header: input.header ?? null,
      upload_key: uploadKey,
      upload_expires_at: grant.expiresAt,
    })
    .execute();
  return {
    import_id: id,
    upload_url: grant.upload_url,
    upload_expires_at: grant.upload_expires_at,
    max_bytes: config.maxUploadBytes,
  };
}

/**
 * The account's import, its file checked to be uploaded and within the limit, taken so that no
 * second submit imports it again (404 for an unknown id or another account's; 409 before the PUT).
 */
export async function takeSuppressionImport(
  db: Kysely<Database>,
  blobStore: BlobStore,
  config: Pick<ServerConfig, 'maxUploadBytes'>,
  profileId: string,
  importId: string,
): Promise<SuppressionImportRow> {
  const row = await db
    .selectFrom('suppression_imports')
    .selectAll()
    .where('id', '=', importId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  if (!row)
    throw new ApiError('not_found', `No suppression import ${importId}: start one with POST /dnc/imports.`);
  await requireUploaded(blobStore, config, row.upload_key);
  const taken = await db
    .deleteFrom('suppression_imports')
    .where('id', '=', importId)
    .returningAll()
    .executeTakeFirst();
  if (!taken) throw new ApiError('conflict', `The suppression import ${importId} was already submitted.`);
  return taken;
}

/** Removes imports whose upload URL expired a day ago or more, never submitted, with their files. */
export async function removeStaleSuppressionImports(
  db: Kysely<Database>,
  blobStore: BlobStore,
  now: Date,
): Promise<number> {
  const stale = await db
    .deleteFrom('suppression_imports')
    .where(
      'id',
      'in',
      db
        .selectFrom('suppression_imports')
        .select('id')
        .where('upload_expires_at', '<', new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS))
        .limit(BATCH),
    )
    .returning('upload_key')
    .execute();
  for (const { upload_key } of stale) await blobStore.delete(upload_key);
  return stale.length;
}
