import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGlitePool } from '@scrub/pglite-pool';
import { Kysely, PostgresDialect } from 'kysely';
import { migrateToLatest } from '../src/storage/database.js';
import { dumpEmptyCluster, PGLITE_TEMPLATE_ENV } from '../src/storage/pglite-template.js';
import type { Database } from '../src/storage/schema.js';

/** The empty cluster's dump, for the tests of the migrations themselves. */
export const PGLITE_EMPTY_TEMPLATE_ENV = 'SCRUB_TEST_PGLITE_EMPTY_TEMPLATE';

/** The empty cluster with every migration applied, dumped the same way. */
async function dumpMigratedCluster(empty: Uint8Array): Promise<Uint8Array> {
  const pglite = await PGlite.create({ loadDataDir: new Blob([empty]) });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
  try {
    await migrateToLatest(db);
    return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await db.destroy(); // closes the PGlite too
  }
}

/**
 * Runs initdb and the migrations once for the whole test run: every PGlite the tests open
 * afterwards (in memory, or in a new data directory, in the test processes and in the binaries
 * they start) loads a copy of this migrated cluster instead of running initdb (seconds of CPU) and
 * the migrations (about 0.15 s of CPU, 0.8 s for the first in a process) again. Their own
 * `migrateToLatest` then finds nothing to apply. The storage tests that apply the migrations to an
 * empty database load the empty cluster (`PGLITE_EMPTY_TEMPLATE_ENV`).
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'scrub-pglite-template-'));
  const empty = await dumpEmptyCluster(() => PGlite.create());
  const emptyPath = join(dir, 'empty-cluster.tar');
  const migratedPath = join(dir, 'migrated-cluster.tar');
  writeFileSync(emptyPath, empty);
  writeFileSync(migratedPath, await dumpMigratedCluster(empty));
  // Set before the workers start, so they and every process they spawn inherit them.
  process.env[PGLITE_TEMPLATE_ENV] = migratedPath;
  process.env[PGLITE_EMPTY_TEMPLATE_ENV] = emptyPath;
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    delete process.env[PGLITE_EMPTY_TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
