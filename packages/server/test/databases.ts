import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/storage/database.js';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  /**
   * A new, empty database: in memory for PGlite, a fresh database on the server for PostgreSQL,
   * whose `url` lets a test open a second connection to it, as another process would.
   */
  open(): Promise<DatabaseHandle & { url?: string }>;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function postgres(adminUrl: string): TestDatabase {
  return {
    kind: 'postgres',
    async open() {
      const name = `scrub_test_${randomBytes(6).toString('hex')}`;
      await adminQuery(adminUrl, `create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ kind: 'postgres', url: url.toString() });
      return {
        ...handle,
        url: url.toString(),
        async close() {
          await handle.close();
          await adminQuery(adminUrl, `drop database if exists ${name}`);
        },
      };
    },
  };
}

const pglite: TestDatabase = { kind: 'pglite', open: () => openDatabase({ kind: 'pglite', dataDir: null }) };

/** Every database kind this run can test: one shared suite runs against each (hono's pattern). */
export function testDatabases(): TestDatabase[] {
  const url = inject('postgresUrl');
  return url ? [pglite, postgres(url)] : [pglite];
}
