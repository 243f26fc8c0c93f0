import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Issue 27: every GET an admin made while acting, the credit counter's polls included, was written
 * to the audit log. Now an acting session's changes are, and its reads are not (but a GET that
 * spends a credit is a change), on PGlite and PostgreSQL.
 */
describe.each(testDatabases())("an acting session's audit entries on $kind", (database: TestDatabase) => {
  let t: TestApp;
  let boss: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(
      { adminEmails: ['boss@example.com'], runBulkWorker: false },
      { database: await database.open() },
    );
    boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
  }, 60_000);
  afterAll(() => t?.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  async function call(options: InjectOptions) {
    const res = await t.app.inject(options);
    return { status: res.statusCode, body: res.json() };
  }

  it('writes down the changes and the credit spent, not the reads', async () => {
    const created = await call({
      method: 'POST',
      url: '/admin/users',
      headers: boss,
      payload: { le: 'pat@example.com', lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut: 'user' },
    });
    expect(created.status).toBe(201);
    const userId = created.body.user_id as string;
    const grant = { plan_credits: 5, reason: 'goodwill' };
    expect(
      (await call({ method: 'POST', url: `/admin/users/${userId}/credits`, headers: boss, payload: grant }))
        .status,
    ).toBe(200);
    const act = await call({ method: 'POST', url: `/admin/users/${userId}/act-as`, headers: boss });
    const as = bearer(act.body.token);

    // The dashboard's credit counter and screens: reads, many of them.
    for (const url of ['/credits', '/credits', '/user', '/files', '/dnc/numbers', '/credits']) {
      expect((await call({ method: 'GET', url, headers: as })).status, url).toBe(200);
    }
    const added = await call({
      method: 'POST',
      url: '/dnc/numbers',
      headers: as,
      payload: { numbers: ['2012345678'] },
    });
    expect(added.status).toBe(200);
    expect((await call({ method: 'GET', url: '/verify?p=2015550199', headers: as })).status).toBe(200);

    // An acting request is written down once answered (Fastify's onResponse), so the last one may
    // land a moment after its answer: read the log until it is there.
    await vi.waitFor(
      async () => {
        const audit = await call({ method: 'GET', url: `/admin/audit?subject_id=${userId}`, headers: boss });
        const acting = audit.body.entries
          .filter((entry: { action: string }) => entry.action.startsWith('act_as.'))
          .map((entry: { action: string; detail: { method?: string; path?: string; status?: number } }) =>
            entry.action === 'act_as.request'
              ? `${entry.detail.method} ${entry.detail.path} ${entry.detail.status}`
              : entry.action,
          );
        // Newest first.
        expect(acting).toEqual(['GET /verify 200', 'POST /dnc/numbers 200', 'act_as.start']);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
