import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

type Command = PostgresQueryResult<unknown>['command'];
/** What the pool needs of PGlite: PGlite itself, or `PGliteThread` (PGlite on a thread of its own). */
export interface PGliteConnection {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  close(): Promise<void>;
}

const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function commandOf(sql: string): Command {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT';
  return (COUNTED.has(word) ? word : 'SELECT') as Command;
}

/**
 * PGlite is one connection. This pool hands it out to one borrower at a time, so a transaction
 * holds it from BEGIN to COMMIT and no other request's statement can land inside it; everybody
 * else waits in line. Kysely's own PostgreSQL driver runs on top, exactly as it does on `pg`.
 */
export class PGlitePool implements PostgresPool {
  readonly options = {};
  #tail: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: PGliteConnection) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => turn);
    await previous;
    const { pglite } = this;
    let released = false;
    return {
      async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const result = await pglite.query<R>(sql, parameters as unknown[]);
        return {
          command: commandOf(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    } as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.#tail;
    await this.pglite.close();
  }
}
