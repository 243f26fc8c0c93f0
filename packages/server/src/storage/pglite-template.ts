import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Test runs only: a dump of a PGlite cluster (`dumpDataDir('none')`) for new databases to start
 * from. Most of a new PGlite's cost is initdb (seconds of CPU: it runs a second PostgreSQL to build
 * the catalogue); loading a copy of a cluster initdb made skips it. Vitest's global setup writes
 * it once per run (`test/pglite-template-setup.ts`), with the migrations applied, so a database
 * opened from it has nothing left to migrate; the service itself never sets it.
 */
export const PGLITE_TEMPLATE_ENV = 'SCRUB_TEST_PGLITE_TEMPLATE';

let cached: { path: string; dump: Blob } | undefined;

/** The template to load into a new database in `dataDir` (null: in memory), or undefined to run initdb. */
export function pgliteTemplate(dataDir: string | null): Blob | undefined {
  const path = process.env[PGLITE_TEMPLATE_ENV];
  if (!path || !existsSync(path)) return undefined;
  // A data directory that holds a cluster already is opened as it is.
  if (dataDir && existsSync(join(dataDir, 'PG_VERSION'))) return undefined;
  if (cached?.path !== path) cached = { path, dump: new Blob([readFileSync(path)]) };
  return cached.dump;
}

/** The dump of a new, empty cluster, as `pgliteTemplate` loads it. */
export async function dumpEmptyCluster(create: () => Promise<PGlite>): Promise<Uint8Array> {
  const pglite = await create();
  try {
    return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pglite.close();
  }
}
