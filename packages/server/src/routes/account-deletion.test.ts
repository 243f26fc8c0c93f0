import { AccountExportSchema } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { poolSignIn, poolSignUp } from '../../test/pool-accounts.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';

/**
 * Issue 26, item 5: a customer exports their data, then deletes their account. Acting sessions may
 * not; the ledger and audit rows stay without the e-mail; the sign-in is gone. PGlite and PostgreSQL.
 */
describe.each(testDatabases())('account export and deletion on $kind', (database: TestDatabase) => {
  let t: TestApp;
  let boss: Record<string, string>;
  const EMAIL = 'leaver@example.com';

  beforeAll(async () => {
    t = await createTestApp(
      {
        adminEmails: ['boss@example.com'],
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/f` },
      },
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

  async function completedFile(headers: Record<string, string>): Promise<string> {
    const created = await call({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'leads.csv', phone_col: 'Phone', csv_content: 'Name,Phone\nAnn,2012340001\n' },
    });
    const jobId = created.body.job_id as string;
    expect((await call({ method: 'POST', url: `/bulk/jobs/${jobId}/submit`, headers })).status).toBe(200);
    for (let i = 0; i < 400; i++) {
      const job = (await call({ method: 'GET', url: `/bulk/jobs/${jobId}`, headers })).body;
      if (job.status === 'completed') return job.file_reference;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job never completed');
  }

  it('exports the files, purchases and phone log; refuses acting sessions; deletes the account, keeping the ledger and audit without the e-mail', async () => {
    const me = bearer(await poolSignUp(t.app, t.database.db, t.config, EMAIL));
    const user = await call({ method: 'GET', url: '/user', headers: me });
    const id = user.body.userId as string;
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 20, kind: 'grant' });
    const reference = await completedFile(me);
    expect((await call({ method: 'GET', url: '/verify?p=2012340002', headers: me })).status).toBe(200);
    expect(
      (await call({ method: 'POST', url: '/dnc/numbers', headers: me, payload: { numbers: ['2012345678'] } }))
        .status,
    ).toBe(200);

    // A low-balance e-mail and an auto top-up threshold, set: the account's balance watch.
    const watched = await call({
      method: 'PUT',
      url: '/payment/auto-top-up',
      headers: me,
      payload: { threshold: 5, low_balance_threshold: 10 },
    });
    expect(watched.status).toBe(200);
    expect(watched.body).toMatchObject({ threshold: 5, low_balance_threshold: 10 });

    // The phone log is written just after the answer.
    const exportNow = async () => {
      const exported = await call({ method: 'GET', url: '/account/export', headers: me });
      expect(exported.status).toBe(200);
      return AccountExportSchema.parse(exported.body);
    };
    await expect.poll(async () => (await exportNow()).checks.length).toBe(1);
    const bundle = await exportNow();
    expect(bundle.account.email).toBe(EMAIL);
    expect(bundle.files.map((file) => file.file_reference)).toEqual([reference]);
    expect(bundle.checks.map((check) => check.phone_number)).toContain('+12012340002');
    expect(bundle.purchases).toEqual([]);

    // An admin acting as the customer may not delete the account.
    const act = await call({ method: 'POST', url: `/admin/users/${id}/act-as`, headers: boss });
    const refused = await call({
      method: 'DELETE',
      url: '/account',
      headers: bearer(act.body.token),
      payload: { confirm_email: EMAIL },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('deleting the account');

    const mistyped = await call({
      method: 'DELETE',
      url: '/account',
      headers: me,
      payload: { confirm_email: 'other@example.com' },
    });
    expect(mistyped.status).toBe(400);
    expect(mistyped.body.message).toContain('did not match');

    const deleted = await call({
      method: 'DELETE',
      url: '/account',
      headers: me,
      payload: { confirm_email: EMAIL },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.tombstone_id).toBe(`deleted-${id}`);

    // The ledger stays; nothing left names the e-mail; the old session and the password are refused.
    const db = t.database.db;
    const ledger = await db
      .selectFrom('credit_ledger')
      .select('delta')
      .where('profile_id', '=', id)
      .execute();
    expect(ledger.length).toBeGreaterThan(0);
    const audit = await db.selectFrom('audit_log').selectAll().where('subject_id', '=', id).execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(EMAIL);
    expect(audit.every((row) => row.subject_email === `deleted-${id}`)).toBe(true);
    expect(audit.map((row) => row.action)).toContain('account.delete');
    const profile = await db
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(profile.email).toBe(`deleted-${id}`);
    expect(profile.deleted_at).not.toBeNull();
    expect(await db.selectFrom('check_log').select('id').where('profile_id', '=', id).execute()).toEqual([]);
    // No auto top-up or low-balance e-mail is left to act for an account that is gone.
    expect(
      await db.selectFrom('balance_watches').select('profile_id').where('profile_id', '=', id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('suppression_numbers').select('number').where('profile_id', '=', id).execute(),
    ).toEqual([]);
    // No table of the service's database holds the e-mail address any more.
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(['profiles', 'credit_ledger', 'audit_log', 'balance_watches']),
    );
    const naming: string[] = [];
    for (const { table_name } of tables.rows) {
      const rows = await sql`select * from ${sql.table(table_name)}`.execute(db);
      if (JSON.stringify(rows.rows).includes(EMAIL)) naming.push(table_name);
    }
    expect(naming).toEqual([]);
    expect((await call({ method: 'GET', url: '/user', headers: me })).status).toBe(401);
    const listed = await call({ method: 'GET', url: '/admin/users?limit=100', headers: boss });
    expect(JSON.stringify(listed.body)).not.toContain(id);
    expect((await call({ method: 'GET', url: `/files/${reference}/result` })).status).toBe(410);
    await expect(poolSignIn(t.app, t.config, EMAIL)).rejects.toThrow(/InitiateAuth answered 400/);
  }, 60_000);
});
