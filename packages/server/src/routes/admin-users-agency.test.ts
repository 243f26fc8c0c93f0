import { AdminUserListSchema, ManagedUserSchema } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { poolSignIn, poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe.each(testDatabases())("the Users list's Agency column on $kind", (kind) => {
  let t: TestApp;
  let boss: Record<string, string>;
  let people = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { adminEmails: ['boss@example.com'], runBulkWorker: false },
      { database: await kind.open() },
    );
    boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
  }, 60_000);
  afterAll(() => t?.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  async function call(options: InjectOptions) {
    const res = await t.app.inject(options);
    return { status: res.statusCode, body: res.json() };
  }
  async function createUser(ut: string, by = boss, extra: object = {}) {
    const le = `agency-col${++people}@example.com`;
    const created = await call({
      method: 'POST',
      url: '/admin/users',
      headers: by,
      payload: { le, lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut, ...extra },
    });
    expect(created.status).toBe(201);
    return {
      answer: ManagedUserSchema.parse(created.body),
      headers: bearer(await poolSignIn(t.app, t.config, le)),
    };
  }

  it("lists each client's Agency (null for an account that is no one's client), and answers it on create", async () => {
    const agency = await createUser('agency');
    const link = { user_id: agency.answer.user_id, email: agency.answer.email };
    const byAgency = await createUser('user', agency.headers);
    expect(byAgency.answer.agency).toEqual(link);
    const byAdmin = await createUser('user', boss, { agency: agency.answer.email });
    expect(byAdmin.answer.agency).toEqual(link);
    const own = await createUser('user');
    expect(own.answer.agency).toBeNull();

    const list = AdminUserListSchema.parse(
      (await call({ method: 'GET', url: '/admin/users', headers: boss })).body,
    );
    const agencyOf = Object.fromEntries(list.users.map((user) => [user.email, user.agency]));
    expect(agencyOf).toMatchObject({
      [byAgency.answer.email]: link,
      [byAdmin.answer.email]: link,
      [own.answer.email]: null,
      [agency.answer.email]: null,
      'boss@example.com': null,
    });
  });
});
