import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openEmbeddedDatabase } from './embedded-database.js';

interface Schema {
  notes: { id: number; text: string };
}

let db: Awaited<ReturnType<typeof openEmbeddedDatabase<Schema>>>;
beforeEach(async () => {
  db = await openEmbeddedDatabase<Schema>();
  await sql`CREATE TABLE notes (id bigint PRIMARY KEY, text text NOT NULL)`.execute(db);
});
afterEach(() => db.destroy());

it('answers 64-bit integers as numbers, and counts the rows a write touched', async () => {
  const inserted = await db.insertInto('notes').values({ id: 1, text: 'one' }).executeTakeFirst();
  expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
  expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'one' }]);
});

it('keeps a statement from elsewhere out of a transaction until it ends', async () => {
  let seenInside: number | undefined;
  const transaction = db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ id: 1, text: 'one' }).execute();
    // Another borrower waits in line: its count cannot land inside this transaction.
    await new Promise((resolve) => setTimeout(resolve, 20));
    seenInside = (await trx.selectFrom('notes').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow())
      .n as number;
    throw new Error('roll back');
  });
  const outside = db.selectFrom('notes').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
  await expect(transaction).rejects.toThrow('roll back');
  expect(seenInside).toBe(1);
  expect((await outside).n).toBe(0);
});
