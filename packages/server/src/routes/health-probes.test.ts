import { join } from 'node:path';
import { ErrorEnvelopeSchema, HealthSchema, LivenessSchema, ReadinessSchema } from '@scrub/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const get = async (t: TestApp, url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() };
};

for (const kind of testDatabases()) {
  describe(`GET /health/live and /health/ready (${kind.kind})`, () => {
    let t: TestApp;
    let databaseGone = false;
    beforeAll(async () => {
      t = await createTestApp({}, { database: await kind.open() });
    });
    afterAll(async () => {
      if (databaseGone) await t.app.close().catch(() => {});
      else await t?.close();
    });

    it('answers ready only with every migration applied, naming the one missing', async () => {
      // Kysely's own record of what is applied (not in the schema's types): the newest one, undone.
      const {
        rows: [last],
      } = await sql<{ name: string; timestamp: string }>`
        select name, timestamp from kysely_migration order by name desc limit 1`.execute(t.database.db);
      await sql`delete from kysely_migration where name = ${last!.name}`.execute(t.database.db);
      const missing = await get(t, '/health/ready');
      expect(missing.status).toBe(503);
      expect(ErrorEnvelopeSchema.parse(missing.body).error).toMatchObject({
        code: 'service_unavailable',
        message: `Not ready: migrations not applied: ${last!.name}.`,
      });
      await sql`insert into kysely_migration (name, timestamp) values (${last!.name}, ${last!.timestamp})`.execute(
        t.database.db,
      );

      const ready = await get(t, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ReadinessSchema.parse(ready.body)).toMatchObject({
        status: 'ready',
        database: { kind: kind.kind, ok: true },
        storage: { ok: true },
        dnc_lists: { required: [] },
      });
      expect(ready.body.migrations.applied).toBeGreaterThan(20);
    });

    it('stays live, and stops being ready, when the database goes away; /health keeps its answer', async () => {
      const live = await get(t, '/health/live');
      expect(live.status).toBe(200);
      expect(LivenessSchema.parse(live.body).status).toBe('ok');

      await t.database.close();
      databaseGone = true;
      const ready = await get(t, '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.error.message).toBe('Not ready: the database does not answer.');
      expect((await get(t, '/health/live')).status).toBe(200);
    });
  });
}

describe('GET /health/ready with a required list missing and a full disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      requireDnc: ['federal'],
      blobStore: { kind: 'local', dir: join('/dev/full', 'files') },
    });
  });
  afterAll(() => t?.close());

  it('answers 503 naming both, while /health still answers 200 degraded and /health/live 200', async () => {
    const ready = await get(t, '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.message).toMatch(
      /^Not ready: files cannot be stored; checks are paused: the do-not-call list federal is required by this service \(SCRUB_REQUIRE_DNC\) and not loaded/,
    );
    const health = await get(t, '/health');
    expect(health.status).toBe(200);
    expect(HealthSchema.parse(health.body).status).toBe('degraded');
    expect((await get(t, '/health/live')).status).toBe(200);
  });
});
