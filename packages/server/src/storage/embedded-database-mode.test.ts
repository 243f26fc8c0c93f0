import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import {
  EMBEDDED_DATABASE_ENV,
  embeddedDatabaseMode,
  loadEmbeddedDatabase,
  migrateToLatest,
  openDatabase,
} from './database.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

it('runs the embedded database on its thread unless SCRUB_EMBEDDED_DATABASE says inline, and refuses a value it does not know', () => {
  expect(embeddedDatabaseMode({})).toBe('thread');
  expect(embeddedDatabaseMode({ [EMBEDDED_DATABASE_ENV]: 'thread' })).toBe('thread');
  expect(embeddedDatabaseMode({ [EMBEDDED_DATABASE_ENV]: ' inline ' })).toBe('inline');
  expect(embeddedDatabaseMode({ [EMBEDDED_DATABASE_ENV]: 'process' })).toBe('process');
  expect(() => embeddedDatabaseMode({ [EMBEDDED_DATABASE_ENV]: 'threads' })).toThrow(
    'SCRUB_EMBEDDED_DATABASE must be thread, process or inline',
  );
});

describe.each(['thread', 'process', 'inline'] as const)('the embedded database, %s', (mode) => {
  it('migrates, answers, keeps a transaction whole, hears NOTIFY, and keeps its data across a restart', {
    timeout: 120_000,
  }, async () => {
    vi.stubEnv(EMBEDDED_DATABASE_ENV, mode);
    const dataDir = join(tempDir('scrub-embedded-mode-'), 'pglite');
    const first = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await migrateToLatest(first.db);
      await sql`create table notes (id bigint primary key, text text not null)`.execute(first.db);
      await sql`insert into notes values (1, 'kept')`.execute(first.db);
      const rolledBack = first.db.transaction().execute(async (trx) => {
        await sql`insert into notes values (2, 'undone')`.execute(trx);
        throw new Error('roll back');
      });
      await expect(rolledBack).rejects.toThrow('roll back');
      const heard: string[] = [];
      const unlisten = await first.listen('jobs', (payload) => heard.push(payload));
      await sql`select pg_notify('jobs', 'job 1')`.execute(first.db);
      await expect.poll(() => heard).toEqual(['job 1']);
      await unlisten();
    } finally {
      await first.close();
    }
    const second = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const { rows } = await sql<{ id: number; text: string }>`select id, text from notes`.execute(second.db);
      expect(rows).toEqual([{ id: 1, text: 'kept' }]);
      expect(await migrateToLatest(second.db)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('takes a consistent copy, which a new data directory opens as it stood', {
    timeout: 120_000,
  }, async () => {
    vi.stubEnv(EMBEDDED_DATABASE_ENV, mode);
    const database = await openDatabase({
      kind: 'pglite',
      dataDir: join(tempDir('scrub-embedded-mode-'), 'pglite'),
    });
    let dump: Blob;
    try {
      await sql`create table notes (id bigint primary key)`.execute(database.db);
      await sql`insert into notes values (42)`.execute(database.db);
      dump = await (database.dumpEmbedded?.(Date.now() + 60_000) ?? Promise.reject(new Error('no dump')));
    } finally {
      await database.close();
    }
    const restoredDir = join(tempDir('scrub-embedded-mode-'), 'pglite');
    await loadEmbeddedDatabase(restoredDir, dump);
    const restored = await openDatabase({ kind: 'pglite', dataDir: restoredDir });
    try {
      const { rows } = await sql<{ id: number }>`select id from notes`.execute(restored.db);
      expect(rows).toEqual([{ id: 42 }]);
    } finally {
      await restored.close();
    }
  });

  it('is closed with the service: a query afterwards is refused, and the data directory is free again', {
    timeout: 120_000,
  }, async () => {
    vi.stubEnv(EMBEDDED_DATABASE_ENV, mode);
    const dataDir = join(tempDir('scrub-embedded-mode-'), 'pglite');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await sql`select 1`.execute(database.db);
    await database.close();
    await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.close();
  });
});
