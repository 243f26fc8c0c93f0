import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type PGliteConnection, PGlitePool, PGliteProcess, PGliteThread } from '@scrub/pglite-pool';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { DatabaseTarget } from '../config/targets.js';
import { tracedPool } from '../tracing/traced-pool.js';
import { restrictDataDir } from './data-dir.js';
import { alsoLockedBy, lockDataDir } from './data-dir-lock.js';
import { InProcessNotices } from './in-process-notices.js';
import { migrationProvider } from './migrations/index.js';
import { pgliteTemplate } from './pglite-template.js';
import { PostgresListeners } from './postgres-listeners.js';
import type { Database } from './schema.js';

export type { DatabaseTarget };

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * Calls `onPayload` with each `NOTIFY` on `channel`, from this process or (on PostgreSQL) any
   * other, until the returned function is called. `select pg_notify(channel, payload)` sends them.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Sends `payload` on `channel` to every listener: `select pg_notify(...)` on PostgreSQL; on the
   * embedded database, which no other process opens, straight to this handle's listeners.
   */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * The embedded database on disk only: a consistent copy of it, PGlite's data directory as a
   * gzipped tarball. Taken between transactions (the one connection held, then a checkpoint), so
   * the copy opens as the database stood at that moment. Refused once `deadline` (epoch ms) has
   * passed while waiting for the running transaction to end.
   */
  dumpEmbedded?(deadline: number): Promise<Blob>;
  /**
   * The embedded database only: `statement` (`copy TABLE (COLUMNS) from '/dev/blob'`) fed `rows`, in
   * PostgreSQL's text format, on the pool's one connection (so inside no one else's transaction).
   * Many rows go in faster so than through `insert ... unnest`; PostgreSQL keeps the insert.
   */
  copyIn?(statement: string, rows: string): Promise<void>;
  /**
   * The embedded database in a process of its own (`SCRUB_EMBEDDED_DATABASE=process`) only:
   * settles with why, should that process end on its own (every query fails from then on).
   */
  lost?: Promise<Error>;
  /** The PostgreSQL pool's connections now (metrics); null for the embedded database's single one. */
  poolUse(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

const INT8 = 20;
const NUMERIC = 1700;

/**
 * The same values come back from both engines: 64-bit integers and numerics as JavaScript numbers
 * (every count and sum we store is far below 2^53), timestamps as Dates.
 */
const parsers = { [INT8]: Number, [NUMERIC]: Number };

/**
 * PostgreSQL settings for the embedded database. PGlite's own default is 128 MB of shared buffers,
 * which the process touches as the database warms: the embedded setup is one machine's accounts,
 * jobs and ledger, a few megabytes of tables. 16 MB holds them; the WAL buffers follow (1/32).
 * Measured in `bench/memory.ts` and docs/benchmarks.md (goal 7).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'];

// Each engine's driver is loaded only when it is the one configured.
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid in parsers
            ? parsers[oid as keyof typeof parsers]
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: tracedPool(pool, 'postgres') }) });
    const listeners = new PostgresListeners(() => new pg.Client({ connectionString: target.url }));
    return {
      db,
      kind: 'postgres',
      listen: (channel, onPayload) => listeners.listen(channel, onPayload),
      notify: async (channel, payload) => {
        await sql`select pg_notify(${channel}, ${payload})`.execute(db);
      },
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async close() {
        await listeners.close();
        await db.destroy();
      },
    };
  }
  return openEmbedded(target.dataDir, pgliteTemplate(target.dataDir));
}

/**
 * Where the embedded database runs: `thread`, on a worker thread of its own (PGlite's work beside
 * the service's event loop, on another core), `process`, in a child process of its own (the same,
 * and V8's optimising compiler kept off PGlite: far less memory), or `inline`, in the service's
 * own event loop. `SCRUB_EMBEDDED_DATABASE` chooses; see docs/operations.md.
 */
export type EmbeddedDatabaseMode = 'thread' | 'process' | 'inline';
export const EMBEDDED_DATABASE_ENV = 'SCRUB_EMBEDDED_DATABASE';
// On the thread by default: as fast or faster, and less CPU per check, in docs/benchmarks.md ("The
// embedded database on a thread of its own"); every suite passes with it.
const DEFAULT_EMBEDDED_MODE: EmbeddedDatabaseMode = 'thread';

export function embeddedDatabaseMode(env: NodeJS.ProcessEnv = process.env): EmbeddedDatabaseMode {
  const value = env[EMBEDDED_DATABASE_ENV]?.trim();
  if (!value) return DEFAULT_EMBEDDED_MODE;
  if (value === 'thread' || value === 'process' || value === 'inline') return value;
  throw new Error(
    `${EMBEDDED_DATABASE_ENV} must be thread, process or inline, not ${JSON.stringify(value)}.`,
  );
}

/** PGlite itself or on its own thread: the calls the embedded database's handle makes. */
type EmbeddedEngine = PGliteConnection & {
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression: 'gzip'): Promise<Blob>;
};

async function startEmbedded(dataDir: string | null, load: Blob | undefined): Promise<EmbeddedEngine> {
  const mode = embeddedDatabaseMode();
  if (mode !== 'inline') {
    const options = {
      dataDir: dataDir ?? undefined,
      loadDataDir: load && new Uint8Array(await load.arrayBuffer()),
      settings: PGLITE_SETTINGS,
      numberTypes: [INT8, NUMERIC],
    };
    return mode === 'process' ? PGliteProcess.create(options) : PGliteThread.create(options);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create({
    dataDir: dataDir ?? undefined,
    loadDataDir: load,
    parsers,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
  }) as Promise<EmbeddedEngine>;
}

/** The embedded database in `dataDir` (null: in memory), made from `load` (a dump) when it holds none yet. */
async function openEmbedded(dataDir: string | null, load: Blob | undefined): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let pglite: EmbeddedEngine;
  try {
    pglite = await startEmbedded(dataDir, load);
    if (dataDir && pglite instanceof PGliteProcess && pglite.pid) alsoLockedBy(dataDir, pglite.pid);
  } catch (error) {
    unlock();
    throw error;
  }
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: tracedPool(new PGlitePool(pglite), 'pglite') }),
  });
  const notices = new InProcessNotices();
  return {
    db,
    kind: 'pglite',
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      const remove = notices.add(channel, onPayload);
      return () => {
        remove();
        return unlisten();
      };
    },
    notify: async (channel, payload) => notices.send(channel, payload),
    ...(dataDir && { dumpEmbedded: (deadline: number) => dumpBetweenTransactions(db, pglite, deadline) }),
    // The pool lends its one connection to one borrower at a time: holding it, no transaction is open.
    copyIn: async (statement, rows) => {
      await db.connection().execute(async () => {
        if (pglite instanceof PGliteThread) await pglite.copyFrom(statement, rows);
        else await (pglite as unknown as PGlite).query(statement, [], { blob: new Blob([rows]) });
      });
    },
    ...(pglite instanceof PGliteProcess && { lost: pglite.lost }),
    poolUse: () => null,
    async close() {
      await db.destroy();
      // The embedded database makes its files world-writable: at rest they are the owner's alone.
      if (dataDir) restrictDataDir(dataDir);
      unlock();
    },
  };
}

class DatabaseBusy extends Error {
  override name = 'DatabaseBusy';
}

async function dumpBetweenTransactions(
  db: Kysely<Database>,
  pglite: EmbeddedEngine,
  deadline: number,
): Promise<Blob> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(new DatabaseBusy('The database stayed busy (a transaction did not end) until the deadline.')),
      Math.max(deadline - Date.now(), 0),
    );
  });
  // The pool lends its one connection to one borrower at a time: holding it, no transaction is open.
  const dump = db.connection().execute(async (connection) => {
    // Given the connection after the deadline: nobody waits for this copy any more.
    if (Date.now() > deadline) throw new DatabaseBusy('The deadline passed before the database was free.');
    await sql`checkpoint`.execute(connection);
    return pglite.dumpDataDir('gzip');
  });
  try {
    return await Promise.race([dump, late]);
  } finally {
    clearTimeout(timer);
    dump.catch(() => {});
  }
}

/**
 * Makes the embedded database in `dataDir` from a dump (`dumpEmbedded`'s tarball) and checks it
 * opens. The directory must hold no database yet.
 */
export async function loadEmbeddedDatabase(dataDir: string, dump: Blob): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`${dataDir} already holds a database: a dump is loaded into a new one only.`);
  }
  const database = await openEmbedded(dataDir, dump);
  try {
    await sql`select 1`.execute(database.db);
  } finally {
    await database.close();
  }
}

/** Brings the schema up to date. Runs under an advisory lock on PostgreSQL, so many processes may start at once. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  if (await allMigrationsApplied(db)) return [];
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * True when the database has run every migration of this version, in order, and none it does not
 * know: what Kysely's migrator would find under its lock, read in one statement. The migrator first
 * reads the whole catalogue twice (to make its tables if missing) and takes a lock: about 400 ms of
 * CPU at every embedded start (docs/benchmarks.md, "Warm start"). Anything else (a new database,
 * a migration to run, one unknown or out of order) is the migrator's to do or to refuse.
 */
async function allMigrationsApplied(db: Kysely<Database>): Promise<boolean> {
  const known = Object.keys(await migrationProvider.getMigrations()).sort();
  let rows: { name: string; timestamp: string }[];
  try {
    rows = (
      await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration`.execute(db)
    ).rows;
  } catch {
    return false; // no migration table yet
  }
  // The migrator's order of what ran: by the time it ran, then by name.
  const ran = rows
    .map((row) => ({ name: row.name, at: new Date(row.timestamp).getTime() }))
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
  return ran.length === known.length && ran.every((row, i) => !Number.isNaN(row.at) && row.name === known[i]);
}

/** How many of this version's migrations the database has, and the names of those it lacks. */
export async function migrationState(db: Kysely<Database>): Promise<{ applied: number; pending: string[] }> {
  const migrations = await new Migrator({ db, provider: migrationProvider }).getMigrations();
  const pending = migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
  return { applied: migrations.length - pending.length, pending };
}

export async function isReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
