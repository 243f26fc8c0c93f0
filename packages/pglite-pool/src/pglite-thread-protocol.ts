/** The messages between `PGliteThread` (the caller's thread) and `pglite-worker` (PGlite's own). */

export interface PGliteThreadOptions {
  /** PGlite's data directory; undefined keeps the database in memory. */
  dataDir?: string;
  /** A dump (`dumpDataDir`'s tarball) to make the database from when `dataDir` holds none yet. */
  loadDataDir?: Uint8Array;
  /** PostgreSQL settings (`name=value`), passed at start beside PGlite's own. */
  settings?: string[];
  /** Type OIDs whose values come back as JavaScript numbers (64-bit integers, numerics). */
  numberTypes?: number[];
}

export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[] }
  /** `COPY ... FROM '/dev/blob'` with `text` as the blob. */
  | { id: number; op: 'copy'; sql: string; text: string }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** An error as it crosses the threads: its message and its own fields (PostgreSQL's `code`, `detail`...). */
export interface ThreadError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type Reply =
  | { kind: 'ready' }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'done'; id: number; value: unknown }
  | { kind: 'error'; id: number; error: ThreadError }
  | { kind: 'notify'; channel: string; payload: string };

export function fromThreadError(error: ThreadError): Error {
  const rebuilt = Object.assign(new Error(error.message), error.fields);
  rebuilt.name = error.name;
  return rebuilt;
}
