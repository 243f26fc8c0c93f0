import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001-plans.js';

/**
 * Migrations are listed here rather than read from a folder, so they travel inside the bundle and
 * run the same from source, from `dist/` and from an installed package. Never edit a released one.
 */
const migrations: Record<string, Migration> = {
  '0001-plans': m0001,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
