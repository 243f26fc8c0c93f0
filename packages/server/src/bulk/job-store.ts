import { randomBytes } from 'node:crypto';
import {
  type CarrierLookupCounts,
  type DncListDate,
  OUTPUT_COLUMNS,
  type OutputColumn,
  type ProofOperatorList,
  type ReassignedSource,
} from '@scrub/contract';
import { type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { applyLedgerEntry } from '../account/ledger.js';
import { requireActivePlan } from '../account/plan-status.js';
import { getProfile, hasUnlimited } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import type { BulkJobsTable, Database } from '../storage/schema.js';
import { completionGiveBacks, giveBack } from './give-back.js';

// Over 500 lines, kept whole: this is the one module that changes a job's state and its credits
// (created, submitted, claimed, completed, failed, streamed), and its helpers that lock a job and
// give credits back are shared by every one of those transitions.

export type JobRow = Selectable<BulkJobsTable>;

type Db = Kysely<Database> | Transaction<Database>;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 base62 characters (190 bits): the public file page is reached by the reference alone. */
export function newFileReference(): string {
  let reference = '';
  for (const byte of randomBytes(32)) reference += BASE62[byte % 62];
  return reference;
}

/**
 * Where a job's files are stored: random names unrelated to the file reference. An upload URL
 * carries its key, and storage and proxy logs record keys, so a key must never lead to the public
 * file page (the reference alone opens the original and the result). Hex, so that every name is a
 * valid file key (base64url may start with `-`, which keys refuse).
 */
export const newUploadKey = () => `uploads/${randomBytes(24).toString('hex')}.csv`;
/** A new name per attempt: a worker that lost its job can never overwrite the result of the one that finished it. */
export const newResultKey = () => `results/${randomBytes(24).toString('hex')}.csv`;

export interface NewJob {
  profileId: string;
  fileName: string;
  fileMethod: 'api' | 'upload';
  phoneCol: string | number;
  headerRow: boolean;
  mapping: Record<string, string | number>;
  /** Optional result columns; default none. */
  columns?: readonly OutputColumn[];
  /** Operator lists to flag rows with, one result column each; default none. */
  lists?: readonly string[];
  /** The consent-date column (the Reassigned result column), and the credits a record then costs. */
  consentCol?: string | number | undefined;
  recordPrice?: number;
  /** `carrier`: look each distinct valid number up; `lookupPrice` of `recordPrice` is its lookup's. */
  lookup?: 'carrier' | undefined;
  lookupPrice?: number;
  /** The result names the mapped columns with the standard headers; default off (as sent). */
  mappedHeaders?: boolean;
}

const describeSeconds = (seconds: number) =>
  seconds % 3600 === 0 ? `${seconds / 3600} hours` : `${Math.ceil(seconds / 60)} minutes`;

/**
 * Creates a job awaiting its upload. An account holds at most `maxUnsubmitted` such jobs (each
 * holds an upload URL and maybe a file): past that, 409 until it submits some or they expire.
 */
export async function createJob(
  db: Kysely<Database>,
  job: NewJob,
  limits: { maxUnsubmitted: number; ttlSeconds: number } = { maxUnsubmitted: 100, ttlSeconds: 86_400 },
): Promise<JobRow> {
  return db.transaction().execute(async (trx) => {
    // One creation at a time per account, so two at once cannot both pass the count.
    await trx.selectFrom('profiles').select('id').where('id', '=', job.profileId).forUpdate().execute();
    const { count } = await trx
      .selectFrom('bulk_jobs')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('profile_id', '=', job.profileId)
      .where('status', '=', 'awaiting_upload')
      .executeTakeFirstOrThrow();
    if (Number(count) >= limits.maxUnsubmitted) {
      throw new ApiError(
        'conflict',
        `This account has ${Number(count)} bulk jobs created but not submitted, the most it may hold. Submit them, or wait: a job not submitted is removed ${describeSeconds(limits.ttlSeconds)} after it was created.`,
      );
    }
    return insertJob(trx, job);
  });
}

async function insertJob(db: Db, job: NewJob): Promise<JobRow> {
  const fileReference = newFileReference();
  return db
    .insertInto('bulk_jobs')
    .values({
      profile_id: job.profileId,
      file_reference: fileReference,
      file_name: job.fileName,
      file_method: job.fileMethod,
      phone_col: JSON.stringify(job.phoneCol),
      header_row: job.headerRow,
      mapping: JSON.stringify(job.mapping),
      output_columns: JSON.stringify(OUTPUT_COLUMNS.filter((column) => job.columns?.includes(column))),
      lists: JSON.stringify(job.lists ?? []),
      consent_col: job.consentCol === undefined ? null : JSON.stringify(job.consentCol),
      record_price: job.recordPrice ?? 1,
      lookup: job.lookup ?? null,
      lookup_price: job.lookupPrice ?? 0,
      mapped_headers: job.mappedHeaders ?? false,
      status: 'awaiting_upload',
      upload_key: newUploadKey(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setUploadExpiry(db: Db, jobId: string, expiresAt: Date): Promise<void> {
  await db.updateTable('bulk_jobs').set({ upload_expires_at: expiresAt }).where('id', '=', jobId).execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's job. Someone else's job is "no such job" too: a 404 never confirms that it exists. */
export async function getOwnJob(db: Db, profileId: string, jobId: string): Promise<JobRow> {
  const row = UUID.test(jobId)
    ? await db
        .selectFrom('bulk_jobs')
        .selectAll()
        .where('id', '=', jobId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError('not_found', `No bulk job ${jobId}.`);
  return row;
}

export async function getJobByReference(db: Db, fileReference: string): Promise<JobRow> {
  const row = await db
    .selectFrom('bulk_jobs')
    .selectAll()
    .where('file_reference', '=', fileReference)
    .executeTakeFirst();
  if (!row) throw new ApiError('file_not_found', 'No file found');
  return row;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface FileListPage {
  rows: JobRow[];
  total: number;
}

/** The export page's list: the account's submitted jobs, newest first, by file name when searched. */
export async function listSubmittedJobs(
  db: Db,
  profileId: string,
  { search, page, limit }: { search?: string | undefined; page: number; limit: number },
): Promise<FileListPage> {
  let list = db
    .selectFrom('bulk_jobs')
    .where('profile_id', '=', profileId)
    .where('status', '!=', 'awaiting_upload');
  if (search?.trim()) {
    list = list.where(sql<boolean>`file_name ilike ${`%${escapeLike(search.trim())}%`}`);
  }
  const { count } = await list.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const rows = await list
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { rows, total: Number(count) };
}

/**
 * Queues an uploaded job and charges its records, `record_price` each, in one transaction: the job is
 * queued if and only if it was paid for (or the account is unlimited). What turns out not to need
 * a credit (duplicates, invalid numbers) is given back when the job completes; everything is given
 * back if it fails. A job already submitted (a second submit racing the first) is returned as it
 * is, charged once.
 */
export async function submitJob(db: Kysely<Database>, job: JobRow, records: number): Promise<JobRow> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('bulk_jobs')
      .selectAll()
      .where('id', '=', job.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (locked.status !== 'awaiting_upload') return locked;
    const profile = await getProfile(trx, job.profile_id);
    requireActivePlan(profile);
    const charge = hasUnlimited(profile) ? 0 : records * locked.record_price;
    if (charge > 0) {
      await applyLedgerEntry(trx, {
        profileId: job.profile_id,
        delta: -charge,
        kind: 'bulk_charge',
        reference: job.id,
        note: `${records.toLocaleString('en-US')} records in ${job.file_name}`,
      });
    }
    return trx
      .updateTable('bulk_jobs')
      .set({
        status: 'queued',
        total_rows: records,
        credits_charged: charge,
        submitted_at: new Date(),
        updated_at: new Date(),
      })
      .where('id', '=', job.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * Takes the oldest queued job, or one whose worker stopped beating for `staleSeconds` (a process
 * that died mid-job): `SKIP LOCKED` lets any number of workers claim at once without waiting on
 * each other or taking the same job.
 */
export async function claimNextJob(
  db: Kysely<Database>,
  workerId: string,
  staleSeconds: number,
): Promise<JobRow | undefined> {
  // One statement (the next job locked, skipping those others hold, and taken): no transaction
  // of four round trips, on every poll of an idle worker too.
  const next = db
    .selectFrom('bulk_jobs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([
          eb('status', '=', 'processing'),
          eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
          // A streamed job's file came with its request: no worker can run it again.
          eb('worker_id', 'not like', `${STREAM_WORKER_PREFIX}%`),
        ]),
      ]),
    )
    .orderBy('submitted_at')
    .limit(1)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('bulk_jobs')
    .set({
      status: 'processing',
      worker_id: workerId,
      heartbeat_at: sql<Date>`now()`,
      attempts: sql<number>`attempts + 1`,
      processed_rows: 0,
      updated_at: new Date(),
    })
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Puts back every job left `processing` by a process that is gone (the embedded database has one
 * process). A streamed job left so cannot be run again (its file came with a request that is gone):
 * it fails, every credit given back.
 */
export async function requeueOrphanedJobs(db: Kysely<Database>): Promise<number> {
  await failStaleStreamJobs(db, 0);
  const rows = await db
    .updateTable('bulk_jobs')
    .set({ status: 'queued', worker_id: null, heartbeat_at: null })
    .where('status', '=', 'processing')
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Puts back in the queue a job this worker stopped in the middle of (its process is shutting down):
 * run again from the start by any worker, as a job left by a process that died is. False when it
 * was no longer this worker's.
 */
export async function releaseJob(db: Kysely<Database>, jobId: string, workerId: string): Promise<boolean> {
  const row = await db
    .updateTable('bulk_jobs')
    .set({ status: 'queued', worker_id: null, heartbeat_at: null, updated_at: new Date() })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records progress and proves the worker alive; false when the job was taken from it (it must stop). */
export async function beat(
  db: Kysely<Database>,
  jobId: string,
  workerId: string,
  processedRows: number,
): Promise<boolean> {
  const row = await db
    .updateTable('bulk_jobs')
    .set({ processed_rows: processedRows, heartbeat_at: sql<Date>`now()`, updated_at: new Date() })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface JobOutcome {
  resultKey: string;
  totalRows: number;
  duplicates: number;
  /** Credits the job needed: the record price per unique valid number. */
  chargeable: number;
  lineTypes: Record<string, number>;
  dncStatus: Record<string, number>;
  fileMessage: string | null;
  /** For the proof of scrub: both files' SHA-256, the distinct numbers looked up, the data used. */
  uploadSha256: string;
  resultSha256: string;
  numbersChecked: number;
  datasetVersions: Record<string, string>;
  /** Each DNC list the job answered from, with its release date, age and staleness then. */
  dncLists: DncListDate[];
  /** When optional columns were evaluated; null without any. */
  columnsEvaluatedAt?: Date | null;
  /** Who answered the Reassigned column; null without one, or when nothing could. */
  reassignedSource?: ReassignedSource | null;
  /** Rows with a valid number by line-type source; the job's carrier lookups; the operator lists flagged. */
  lineTypeSources?: Record<string, number>;
  carrierLookups?: CarrierLookupCounts | null;
  operatorLists?: ProofOperatorList[];
}

/** What a scrub makes of a job's outcome, before its files are stored and hashed. */
export type ScrubbedRows = Omit<JobOutcome, 'resultKey' | 'uploadSha256' | 'resultSha256'>;

/** What a finished scrub writes on its job row, whichever way the job came in. */
function outcomeColumns(outcome: JobOutcome) {
  return {
    total_rows: outcome.totalRows,
    processed_rows: outcome.totalRows,
    duplicates: outcome.duplicates,
    line_types: JSON.stringify(outcome.lineTypes),
    dnc_status: JSON.stringify(outcome.dncStatus),
    file_message: outcome.fileMessage,
    upload_sha256: outcome.uploadSha256,
    result_sha256: outcome.resultSha256,
    numbers_checked: outcome.numbersChecked,
    dataset_versions: JSON.stringify(outcome.datasetVersions),
    dnc_lists: JSON.stringify(outcome.dncLists),
    columns_evaluated_at: outcome.columnsEvaluatedAt ?? null,
    reassigned_source: outcome.reassignedSource ? JSON.stringify(outcome.reassignedSource) : null,
    line_type_sources: outcome.lineTypeSources ? JSON.stringify(outcome.lineTypeSources) : null,
    carrier_lookups: outcome.carrierLookups ? JSON.stringify(outcome.carrierLookups) : null,
    operator_lists: outcome.operatorLists ? JSON.stringify(outcome.operatorLists) : null,
  };
}

/** Locks the job; undefined when another worker holds it now (this one lost its claim). */
async function lockClaimed(trx: Transaction<Database>, jobId: string, workerId: string) {
  return trx
    .selectFrom('bulk_jobs')
    .selectAll()
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'processing')
    .forUpdate()
    .executeTakeFirst();
}

/** Writes a job's final state: no worker holds it any more. */
function settle(
  trx: Transaction<Database>,
  jobId: string,
  changes: Updateable<BulkJobsTable>,
): Promise<JobRow> {
  const now = new Date();
  return trx
    .updateTable('bulk_jobs')
    .set({ ...changes, worker_id: null, completed_at: now, updated_at: now })
    .where('id', '=', jobId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Runs inside the transaction that ends a job (webhooks/job-events.ts writes its event there). */
export type OnJobEnd = (trx: Transaction<Database>, job: JobRow) => Promise<unknown>;

export async function completeJob(
  db: Kysely<Database>,
  jobId: string,
  workerId: string,
  outcome: JobOutcome,
  onEnd?: OnJobEnd,
): Promise<JobRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const job = await lockClaimed(trx, jobId, workerId);
    if (!job) return undefined;
    const unused = job.credits_charged > 0 ? Math.max(job.credits_charged - outcome.chargeable, 0) : 0;
    const reversed = await giveBack(trx, job, completionGiveBacks(job, outcome, unused));
    const done = await settle(trx, jobId, {
      status: 'completed',
      result_key: outcome.resultKey,
      credits_reversed: reversed,
      ...outcomeColumns(outcome),
    });
    await onEnd?.(trx, done);
    return done;
  });
}

/** Fails the job and gives back every credit it took. */
export async function failJob(
  db: Kysely<Database>,
  jobId: string,
  workerId: string | null,
  error: string,
  onEnd?: OnJobEnd,
): Promise<JobRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const job =
      workerId === null
        ? await trx.selectFrom('bulk_jobs').selectAll().where('id', '=', jobId).forUpdate().executeTakeFirst()
        : await lockClaimed(trx, jobId, workerId);
    if (!job || job.status === 'completed' || job.status === 'failed') return undefined;
    const reversed = await giveBack(trx, job, [
      { reason: 'failed_or_cut', credits: job.credits_charged, note: `job failed: ${error}`.slice(0, 500) },
    ]);
    const failed = await settle(trx, jobId, { status: 'failed', error, credits_reversed: reversed });
    await onEnd?.(trx, failed);
    return failed;
  });
}

export interface ImportedOutcome {
  resultKey: string;
  totalRows: number;
  duplicates: number;
  lineTypes: Record<string, number>;
  dncStatus: Record<string, number>;
}

/**
 * Stores an uploaded, already-scrubbed file as a completed job, charged nothing ("Upload Existing
 * Files"). Once only: a job stored already (a second submit racing the first) is returned as it is.
 */
export async function completeImportedJob(
  db: Kysely<Database>,
  jobId: string,
  outcome: ImportedOutcome,
): Promise<JobRow | undefined> {
  const now = new Date();
  return db
    .updateTable('bulk_jobs')
    .set({
      status: 'completed',
      result_key: outcome.resultKey,
      total_rows: outcome.totalRows,
      processed_rows: outcome.totalRows,
      duplicates: outcome.duplicates,
      line_types: JSON.stringify(outcome.lineTypes),
      dnc_status: JSON.stringify(outcome.dncStatus),
      submitted_at: now,
      completed_at: now,
      updated_at: now,
    })
    .where('id', '=', jobId)
    .where('status', '=', 'awaiting_upload')
    .returningAll()
    .executeTakeFirst();
}

/** `worker_id` of a job being streamed (`POST /bulk/jobs/stream`): the request is its worker. */
export const STREAM_WORKER_PREFIX = 'stream:';

/** What a streamed job's request says to a process that finds it dead. */
export const STREAM_LOST_ERROR =
  'The connection that sent this file was lost before the job finished. Your credits were given back.';

/**
 * Records a streamed job, already processing under `workerId` (its request), charged nothing yet:
 * it is charged block by block as its rows arrive (`reserveStreamCredits`). A paused plan is
 * refused here, before anything is read.
 */
export async function startStreamJob(db: Kysely<Database>, job: NewJob, workerId: string): Promise<JobRow> {
  return db.transaction().execute(async (trx) => {
    requireActivePlan(await getProfile(trx, job.profileId));
    const created = await insertJob(trx, job);
    return trx
      .updateTable('bulk_jobs')
      .set({
        status: 'processing',
        worker_id: workerId,
        heartbeat_at: sql<Date>`now()`,
        attempts: 1,
        submitted_at: new Date(),
        updated_at: new Date(),
      })
      .where('id', '=', created.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export type Reservation =
  | { ok: true; credits: number }
  | { ok: false; available: number; reason: 'credits' | 'paused' | 'lost' };

/**
 * Charges a streamed job for rows before they are scrubbed: `want` credits (a block ahead), but
 * never fewer than `need` (the rows counted and not yet paid for), and ahead of `need` at most
 * half of what the balance holds beyond it: short of `need`, nothing is charged and the answer
 * says so. An unlimited
 * account is charged nothing. Also proves the request alive (the heartbeat).
 */
export async function reserveStreamCredits(
  db: Kysely<Database>,
  jobId: string,
  workerId: string,
  need: number,
  want: number,
  processedRows: number,
): Promise<Reservation> {
  return db.transaction().execute(async (trx) => {
    const job = await lockClaimed(trx, jobId, workerId);
    if (!job) return { ok: false, available: 0, reason: 'lost' };
    // Locked: another charge to the account waits, rather than leaving this one short of its sum.
    const profile = await trx
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', job.profile_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (profile.plan_status === 'paused') return { ok: false, available: profile.credits, reason: 'paused' };
    if (!hasUnlimited(profile) && profile.credits < need) {
      return { ok: false, available: profile.credits, reason: 'credits' };
    }
    // Ahead of the rows counted, at most half of what the balance holds beyond them: the account's
    // other jobs and streams keep the rest.
    const ahead = Math.min(Math.max(want - need, 0), Math.floor((profile.credits - need) / 2));
    const charge = hasUnlimited(profile) ? 0 : need + ahead;
    if (charge > 0) {
      await applyLedgerEntry(trx, {
        profileId: job.profile_id,
        delta: -charge,
        kind: 'bulk_charge',
        reference: job.id,
        note: `${charge.toLocaleString('en-US')} records reserved as ${job.file_name} streams in`,
      });
    }
    await trx
      .updateTable('bulk_jobs')
      .set({
        credits_charged: job.credits_charged + charge,
        processed_rows: processedRows,
        heartbeat_at: sql<Date>`now()`,
        updated_at: new Date(),
      })
      .where('id', '=', jobId)
      .execute();
    return { ok: true, credits: job.credits_charged + charge };
  });
}

/**
 * Ends a streamed job that scrubbed `outcome.totalRows` records: credits reserved beyond them are
 * given back, and then, as for a queued job, those of duplicates and invalid numbers; the job is
 * then what a queued job of the same rows would be (charged the records, reversed the rest).
 * Undefined when the job is no longer this request's. A stream `stopped` part-way after rows went
 * out (the message says why) is settled the same way for the rows it scrubbed, but as `failed`:
 * its result is kept, it has no upload (only part of the file arrived) and no proof.
 */
export async function settleStreamJob(
  db: Kysely<Database>,
  jobId: string,
  workerId: string,
  outcome: JobOutcome,
  onEnd?: OnJobEnd,
  stopped?: string,
): Promise<JobRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const locked = await lockClaimed(trx, jobId, workerId);
    if (!locked) return undefined;
    const excess = Math.max(locked.credits_charged - outcome.totalRows * locked.record_price, 0);
    if (excess > 0) {
      await applyLedgerEntry(trx, {
        profileId: locked.profile_id,
        delta: excess,
        kind: 'reversal',
        reference: locked.id,
        note: 'reserved for records the stream did not bring',
        reason: 'failed_or_cut',
      });
    }
    const job = { ...locked, credits_charged: locked.credits_charged - excess };
    const unused = job.credits_charged > 0 ? Math.max(job.credits_charged - outcome.chargeable, 0) : 0;
    const reversed = await giveBack(trx, job, completionGiveBacks(job, outcome, unused));
    const done = await settle(trx, jobId, {
      status: 'completed',
      result_key: outcome.resultKey,
      credits_charged: job.credits_charged,
      credits_reversed: reversed,
      ...outcomeColumns(outcome),
      ...(stopped === undefined ? {} : { status: 'failed', error: stopped, upload_sha256: null }),
    });
    await onEnd?.(trx, done);
    return done;
  });
}

/**
 * Fails streamed jobs whose request has not beaten for `staleSeconds` (its process died, or the
 * database lost it): every credit given back. Answers how many.
 */
export async function failStaleStreamJobs(
  db: Kysely<Database>,
  staleSeconds: number,
  onEnd?: OnJobEnd,
): Promise<number> {
  const stale = await db
    .selectFrom('bulk_jobs')
    .select('id')
    .where('status', '=', 'processing')
    .where('worker_id', 'like', `${STREAM_WORKER_PREFIX}%`)
    .where('heartbeat_at', '<=', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
    .execute();
  let failed = 0;
  for (const { id } of stale) {
    if (await failJob(db, id, null, STREAM_LOST_ERROR, onEnd)) failed++;
  }
  return failed;
}
