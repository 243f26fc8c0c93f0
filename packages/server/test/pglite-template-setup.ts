import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { dumpEmptyCluster, PGLITE_TEMPLATE_ENV } from '../src/storage/pglite-template.js';

/**
 * Runs initdb once for the whole test run: every PGlite the tests open afterwards (in memory, or
 * in a new data directory, in the test processes and in the binaries they start) loads a copy of
 * this empty cluster instead of running initdb again, which cost seconds of CPU each time.
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'scrub-pglite-template-'));
  const path = join(dir, 'empty-cluster.tar');
  writeFileSync(path, await dumpEmptyCluster(() => PGlite.create()));
  // Set before the workers start, so they and every process they spawn inherit it.
  process.env[PGLITE_TEMPLATE_ENV] = path;
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
