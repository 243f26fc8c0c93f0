import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGlitePool } from './pglite-pool.js';

/**
 * A fresh in-memory PostgreSQL (PGlite) behind Kysely, for a stand-in run on its own;
 * `destroy()` closes it. 64-bit integers come back as numbers, as the Scrub server reads them.
 */
export async function openEmbeddedDatabase<DB>(): Promise<Kysely<DB>> {
  const pglite = await PGlite.create({ parsers: { 20: Number } });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
}
