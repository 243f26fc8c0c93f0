import type { CheckKind, VerifyResult } from '@scrub/contract';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { CredentialKind, Principal } from '../auth/principal.js';
import type { DatabaseHandle } from '../storage/database.js';
import type { Database } from '../storage/schema.js';

/** One check as the phone log keeps it. */
export interface CheckLogRow {
  profileId: string;
  checkedAt: Date;
  input: string;
  phoneNumber: string;
  lineType: string;
  dnc: boolean | null;
  cached: boolean;
  credits: number;
  kind: CheckKind;
  via: CredentialKind;
  apiKeyId: string | null;
  actorProfileId: string | null;
  /** The answer's other fields, as JSON text. */
  answer: string;
}

/** How the check came in, as the log keeps it. */
export function sourceOf(principal: Principal): Pick<CheckLogRow, 'via' | 'apiKeyId' | 'actorProfileId'> {
  return {
    via: principal.via,
    apiKeyId: principal.apiKeyId ?? null,
    actorProfileId: principal.actor?.profileId ?? null,
  };
}

/** A check's row: the answer's key fields in columns, the rest (reasons, lists, sources) as JSON. */
export function checkLogRowOf(
  result: VerifyResult,
  input: string,
  principal: Principal,
  kind: CheckKind,
  checkedAt: Date,
): CheckLogRow {
  return {
    profileId: principal.profileId,
    checkedAt,
    input,
    phoneNumber: result.phone_number,
    lineType: result.line_type,
    dnc: result.dnc === null ? null : result.dnc === 1,
    cached: result.cached,
    credits: result.credits_deducted ?? 0,
    kind,
    ...sourceOf(principal),
    answer: storedAnswerOf(result),
  };
}

/**
 * The answer's other fields as the log stores them: null and empty ones left out (most are, for
 * most numbers), which makes a batch's rows about half as wide to write. `ANSWER_DEFAULTS` puts
 * them back when the log is read. `reassigned` is kept whenever the check asked it (null too): its
 * absence says it was not asked.
 */
function storedAnswerOf(result: VerifyResult): string {
  const kept: Record<string, unknown> = {};
  const keep = (name: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value) && value.length === 0) return;
    kept[name] = value;
  };
  keep('line_type_source', result.line_type_source);
  keep('invalid_reason', result.invalid_reason);
  keep('extension', result.extension);
  keep('dnc_sources', result.dnc_sources);
  keep('dnc_lists_checked', result.dnc_lists_checked);
  keep('carrier_lookup', result.carrier_lookup);
  keep('ported', result.ported);
  if (result.reassigned !== undefined) kept.reassigned = result.reassigned;
  keep('data_source', result.data_source);
  return JSON.stringify(kept);
}

/** The stored answer's fields as they are when the log leaves them out. */
export const ANSWER_DEFAULTS: Readonly<Record<string, unknown>> = {
  line_type_source: null,
  invalid_reason: null,
  extension: null,
  dnc_sources: [],
  dnc_lists_checked: [],
  carrier_lookup: null,
  ported: null,
};

/** Rows written by one statement: its arrays are bound as 13 parameters however many rows. */
const MAX_BATCH = 5000;
/** Past this many rows waiting, a check waits for the log to catch up rather than grow memory. */
const MAX_QUEUED = 50_000;
/**
 * How long rows wait for others before they are written: under load one insert then carries a few
 * hundred checks instead of the handful that arrive while one runs (PGlite runs its statements on
 * the event loop, so each statement spared is time given back to the checks).
 */
const FLUSH_MS = 100;

/**
 * Writes the phone log off the check's path: a check queues its row and answers at once; rows wait
 * up to `FLUSH_MS` (or until a batch is full, or someone reads the log) and go in together, many in
 * one statement (`unnest` of column arrays).
 * The queue is bounded: past `MAX_QUEUED` rows, `record` answers a promise that settles when the
 * backlog has been written, which the check awaits (back-pressure, never a lost row). `settled`
 * writes what is left (shutdown). A failed insert is logged and its rows dropped: the log is a
 * record of checks, never a reason to refuse one.
 */
export class CheckLog {
  #queue: CheckLogRow[] = [];
  #running: Promise<void> | null = null;
  /** Ends the wait before the next insert: a full batch, or someone waiting for the log. */
  #wake: (() => void) | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger | false,
    /** The embedded database's `COPY` (`DatabaseHandle.copyIn`): used instead of the insert when given. */
    private readonly copyIn?: DatabaseHandle['copyIn'],
    private readonly maxQueued = MAX_QUEUED,
  ) {}

  /** Queues rows; answers a promise only when the queue is full, to be awaited before answering. */
  record(rows: CheckLogRow[]): Promise<void> | undefined {
    for (const row of rows) this.#queue.push(row);
    this.#running ??= this.#drain();
    if (this.#queue.length >= MAX_BATCH) this.#wake?.();
    return this.#queue.length > this.maxQueued ? this.#running : undefined;
  }

  /** Resolves once every row queued so far is written, at once (a listing, shutdown, tests). */
  async settled(): Promise<void> {
    while (this.#running) {
      this.#wake?.();
      await this.#running;
    }
  }

  async #drain(): Promise<void> {
    // Let the checks of the next moments join the first insert.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FLUSH_MS);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#wake = null;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      try {
        if (this.copyIn) await this.copyIn(COPY_STATEMENT, copyTextOf(batch));
        else await insertRows(this.db, batch);
      } catch (error) {
        if (this.logger)
          this.logger.error({ err: error, rows: batch.length }, 'could not write the phone log');
      }
    }
    this.#running = null;
  }
}

const COPY_STATEMENT = `copy check_log (profile_id, checked_at, input, phone_number, line_type, dnc, cached,
  credits, kind, via, api_key_id, actor_profile_id, answer) from '/dev/blob'`;

/** Characters COPY's text format escapes. */
const COPY_SPECIAL = /[\\\t\n\r]/;

/** A value in COPY's text format: null as `\N`, backslash, tab and line ends escaped. */
function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  // Most values (numbers, the answer's JSON) hold none: checked once, not rewritten.
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/**
 * The rows as COPY's text format: one line each, its columns in `COPY_STATEMENT`'s order. A batch's
 * rows share their time: its text is written once per distinct moment, not per row.
 */
function copyTextOf(rows: CheckLogRow[]): string {
  let text = '';
  let time: Date | null = null;
  let timeText = '';
  for (const r of rows) {
    if (r.checkedAt !== time) {
      time = r.checkedAt;
      timeText = time.toISOString();
    }
    text +=
      `${r.profileId}\t${timeText}\t${copyValue(r.input)}\t${copyValue(r.phoneNumber)}\t${r.lineType}\t` +
      `${r.dnc === null ? '\\N' : r.dnc ? 't' : 'f'}\t${r.cached ? 't' : 'f'}\t${r.credits}\t${r.kind}\t` +
      `${r.via}\t${r.apiKeyId ?? '\\N'}\t${r.actorProfileId ?? '\\N'}\t${copyValue(r.answer)}\n`;
  }
  return text;
}

/** One statement for any number of rows: each column bound as one array. */
async function insertRows(db: Kysely<Database>, rows: CheckLogRow[]): Promise<void> {
  const column = <T>(pick: (row: CheckLogRow) => T) => rows.map(pick);
  const text = (value: boolean | null) => (value === null ? null : String(value));
  await sql`insert into check_log (profile_id, checked_at, input, phone_number, line_type, dnc, cached, credits,
      kind, via, api_key_id, actor_profile_id, answer)
    select * from unnest(
      ${column((r) => r.profileId)}::uuid[],
      ${column((r) => r.checkedAt.toISOString())}::timestamptz[],
      ${column((r) => r.input)}::text[],
      ${column((r) => r.phoneNumber)}::text[],
      ${column((r) => r.lineType)}::text[],
      ${column((r) => text(r.dnc))}::boolean[],
      ${column((r) => String(r.cached))}::boolean[],
      ${column((r) => String(r.credits))}::integer[],
      ${column((r) => r.kind)}::text[],
      ${column((r) => r.via)}::text[],
      ${column((r) => r.apiKeyId)}::uuid[],
      ${column((r) => r.actorProfileId)}::uuid[],
      ${column((r) => r.answer)}::text[]
    )`.execute(db);
}

/** How many rows one sweep removes at most; the next sweep takes the rest. */
const SWEEP_BATCH = 10_000;

/**
 * Removes checks made before `cutoff`; answers how many went. It looks at the oldest rows by id
 * only (the order they were written in, so the oldest checks), through the primary key: no index
 * on the date to keep up on every insert. A row written a moment out of order goes next sweep.
 */
export async function removeOldChecks(db: Kysely<Database>, cutoff: Date): Promise<number> {
  const gone = await sql`delete from check_log where id in (
      select id from (select id, checked_at from check_log order by id limit ${SWEEP_BATCH}) as oldest
      where checked_at < ${cutoff.toISOString()}::timestamptz
    )`.execute(db);
  return Number(gone.numAffectedRows ?? 0);
}

/** The sweep the bulk worker's expiry runs: checks older than `days` (SCRUB_CHECK_LOG_DAYS). */
export function checkLogSweep(db: Kysely<Database>, days: number) {
  return {
    what: 'phone log checks past their retention',
    remove: (now: Date) => removeOldChecks(db, new Date(now.getTime() - days * 86_400_000)),
  };
}
