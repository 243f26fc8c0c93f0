import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { PGLITE_EMPTY_TEMPLATE_ENV } from '../../test/pglite-template-setup.js';
import { planCatalogue } from '../plans/catalogue.js';
import { listPlans, seedPlans } from '../plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest } from './database.js';
import { migrationProvider } from './migrations/index.js';
import { PGLITE_TEMPLATE_ENV } from './pglite-template.js';

// The test run's PGlite template has the migrations applied; these tests apply them to an empty
// database, as a new installation does.
if (process.env[PGLITE_EMPTY_TEMPLATE_ENV])
  process.env[PGLITE_TEMPLATE_ENV] = process.env[PGLITE_EMPTY_TEMPLATE_ENV];

const allMigrations = Object.keys(await migrationProvider.getMigrations()).sort();

describe.each(testDatabases())('storage on $kind', ({ kind, open }) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await open();
  });
  afterEach(async () => {
    await database.close();
  });

  it('reports which kind of database it is', () => {
    expect(database.kind).toBe(kind);
  });

  it.runIf(kind === 'pglite')(
    'runs the embedded database with 16 MB of shared buffers, not 128 MB',
    async () => {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
      expect(rows[0]?.shared_buffers).toBe('16MB');
    },
  );

  it('applies every migration to an empty database, then has nothing left to apply', async () => {
    expect(await migrateToLatest(database.db)).toEqual(allMigrations);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('applies only the newest migration to a database that lacks it', async () => {
    await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo(allMigrations.at(-2)!);
    expect(await migrateToLatest(database.db)).toEqual([allMigrations.at(-1)]);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('refuses a database that ran a migration this version does not know', async () => {
    await migrateToLatest(database.db);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(
      database.db,
    );
    await expect(migrateToLatest(database.db)).rejects.toThrow(/9999-from-a-newer-version/);
  });

  it('survives two processes migrating at once', async () => {
    const results = await Promise.all([migrateToLatest(database.db), migrateToLatest(database.db)]);
    expect(results.flat()).toEqual(allMigrations);
  });

  it('seeds the plan catalogue and reads it back unchanged, in catalogue order', async () => {
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    expect(await listPlans(database.db)).toEqual(planCatalogue);
  });

  it('re-seeding an unchanged catalogue writes nothing', async () => {
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    const stamps = () => database.db.selectFrom('plans').select(['plan_reference', 'updated_at']).execute();
    const before = await stamps();
    await seedPlans(database.db);
    expect(await stamps()).toEqual(before);
    expect(await listPlans(database.db)).toEqual(planCatalogue);
  });

  it('re-seeding updates plans in place and retires plans that left the catalogue', async () => {
    await migrateToLatest(database.db);
    await seedPlans(database.db);
    const [first, ...rest] = planCatalogue;
    const renamed = { ...rest[0]!, plan_name: 'RENAMED' };
    await seedPlans(database.db, [renamed, ...rest.slice(1)]);
    const plans = await listPlans(database.db);
    expect(plans.map((p) => p.plan_reference)).not.toContain(first!.plan_reference);
    expect(plans[0]?.plan_name).toBe('RENAMED');
    const stored = await database.db.selectFrom('plans').select(['plan_reference', 'active']).execute();
    expect(stored).toHaveLength(planCatalogue.length);
  });

  it('returns 64-bit integers and numerics as numbers, the same on both engines', async () => {
    const { rows } = await sql<{
      big: number;
      money: number;
    }>`select 9007199254740991::int8 as big, 12.50::numeric as money`.execute(database.db);
    expect(rows[0]).toEqual({ big: 9007199254740991, money: 12.5 });
  });

  it('keeps concurrent transactions apart: a rollback undoes only its own statements', async () => {
    await sql`create table items (id serial primary key, label text not null)`.execute(database.db);
    const tasks = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? database.db
            .transaction()
            .execute(async (trx) => {
              await sql`insert into items (label) values (${`rolled-back-${i}`})`.execute(trx);
              await new Promise((r) => setTimeout(r, 2));
              throw new Error('roll back');
            })
            .catch(() => undefined)
        : sql`insert into items (label) values (${`kept-${i}`})`.execute(database.db),
    );
    await Promise.all(tasks);
    const { rows } = await sql<{ label: string }>`select label from items order by id`.execute(database.db);
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.label.startsWith('kept-'))).toBe(true);
  });
});
