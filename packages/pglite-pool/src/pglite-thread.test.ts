import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { PGlitePool } from './pglite-pool.js';
import { PGliteThread } from './pglite-thread.js';

interface Schema {
  notes: { id: number; text: string };
}

const opened: PGliteThread[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((thread) => thread.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir?: string): Promise<{ thread: PGliteThread; db: Kysely<Schema> }> {
  const thread = await PGliteThread.create({ dataDir, numberTypes: [20] });
  opened.push(thread);
  return {
    thread,
    db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool: new PGlitePool(thread) }) }),
  };
}

it('answers queries from its own thread, 64-bit integers as numbers, dates as dates', {
  timeout: 60_000,
}, async () => {
  const { db } = await start();
  await sql`CREATE TABLE notes (id bigint PRIMARY KEY, text text NOT NULL)`.execute(db);
  const inserted = await db.insertInto('notes').values({ id: 1, text: 'one' }).executeTakeFirst();
  expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
  expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'one' }]);
  const { rows } = await sql<{ at: Date }>`select timestamptz '2026-01-02T03:04:05Z' as at`.execute(db);
  expect(rows[0]?.at).toEqual(new Date('2026-01-02T03:04:05Z'));
});

it("passes PostgreSQL's errors on with their code, and keeps a transaction whole", {
  timeout: 60_000,
}, async () => {
  const { db } = await start();
  await sql`CREATE TABLE notes (id bigint PRIMARY KEY, text text NOT NULL)`.execute(db);
  await db.insertInto('notes').values({ id: 1, text: 'one' }).execute();
  const again = db.insertInto('notes').values({ id: 1, text: 'again' }).execute();
  await expect(again).rejects.toMatchObject({ code: '23505' });
  const transaction = db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ id: 2, text: 'two' }).execute();
    throw new Error('roll back');
  });
  await expect(transaction).rejects.toThrow('roll back');
  expect(await db.selectFrom('notes').select('id').execute()).toEqual([{ id: 1 }]);
});

it('passes on each NOTIFY on a channel listened to, until unlistened', { timeout: 60_000 }, async () => {
  const { thread, db } = await start();
  const heard: string[] = [];
  const unlisten = await thread.listen('jobs', (payload) => heard.push(payload));
  await sql`select pg_notify('jobs', 'first')`.execute(db);
  await sql`select pg_notify('other', 'not this')`.execute(db);
  await expect.poll(() => heard).toEqual(['first']);
  await unlisten();
  await sql`select pg_notify('jobs', 'second')`.execute(db);
  await sql`select 1`.execute(db);
  expect(heard).toEqual(['first']);
});

it('keeps what it wrote across a restart on the same data directory', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
  dirs.push(dataDir);
  const first = await start(dataDir);
  await sql`CREATE TABLE notes (id bigint PRIMARY KEY, text text NOT NULL)`.execute(first.db);
  await first.db.insertInto('notes').values({ id: 7, text: 'kept' }).execute();
  await first.db.destroy();
  const second = await start(dataDir);
  expect(await second.db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 7, text: 'kept' }]);
  await second.db.destroy();
});

it('stops its thread on close: later queries are refused, not left waiting', {
  timeout: 60_000,
}, async () => {
  const { thread } = await start();
  await thread.close();
  await expect(thread.query('select 1')).rejects.toThrow('closed');
});
