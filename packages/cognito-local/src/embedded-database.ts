import { PGlite } from '@electric-sql/pglite';
import {
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely';
import type { HostDatabase } from './host-database.js';

/**
 * An in-memory PostgreSQL (PGlite) for the pool run on its own. PGlite is one connection: the
 * pool lends it to one borrower at a time, so a transaction holds it from BEGIN to COMMIT.
 * (The Scrub server has its own, fuller pool in `storage/pglite-pool.ts`.)
 */
const counted = (sql: string) => {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT';
  return (['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(word) ? word : 'SELECT') as 'SELECT';
};

class OneConnectionPool implements PostgresPool {
  readonly options = {};
  #tail: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const previous = this.#tail;
    this.#tail = previous.then(() => new Promise<void>((resolve) => (release = resolve)));
    await previous;
    const { pglite } = this;
    return {
      async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const result = await pglite.query<R>(sql, parameters as unknown[]);
        return {
          command: counted(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release: () => release(),
    } as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.#tail;
    await this.pglite.close();
  }
}

/** A fresh in-memory database; `destroy()` closes it. */
export async function openEmbeddedDatabase(): Promise<HostDatabase> {
  // 64-bit integers as numbers, as the Scrub server reads them.
  const pglite = await PGlite.create({ parsers: { 20: Number } });
  return new Kysely<never>({ dialect: new PostgresDialect({ pool: new OneConnectionPool(pglite) }) });
}
