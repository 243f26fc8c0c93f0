import { ACTING_ADMIN_HEADER, ACTING_AS_HEADER, adminMessages } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolSignIn, poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createJob, submitJob } from '../bulk/job-store.js';
import { recordPurchase } from '../payments/purchase-ledger.js';

let t: TestApp;
let boss: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['boss@example.com'], runBulkWorker: false });
  boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
}, 60_000);
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function call(options: InjectOptions) {
  const res = await t.app.inject(options);
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

let people = 0;
/** Creates an account through the admin API; answers its id, e-mail and a fresh ID token. */
async function createUser(ut = 'user', by = boss) {
  const le = `user${++people}@example.com`;
  const created = await call({
    method: 'POST',
    url: '/admin/users',
    headers: by,
    payload: { le, lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut },
  });
  expect(created.status).toBe(201);
  const token = await poolSignIn(t.app, t.config, le);
  return { id: created.body.user_id as string, email: le, headers: bearer(token) };
}

const adjust = (userId: string, plan_credits: number, by = boss, reason = 'goodwill') =>
  call({
    method: 'POST',
    url: `/admin/users/${userId}/credits`,
    headers: by,
    payload: { plan_credits, reason },
  });

describe('the first admin', () => {
  it('is a Super Admin from SCRUB_ADMIN_EMAILS', async () => {
    const { body } = await call({ method: 'GET', url: '/user', headers: boss });
    expect(body.role.name).toBe('Super Admin');
  });
});

describe('create and edit accounts', () => {
  it("answers the seed's messages, spelling corrected", async () => {
    const missing = await call({
      method: 'POST',
      url: '/admin/users',
      headers: boss,
      payload: { le: 'a@b.co' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain(adminMessages.allFieldsRequired);
    const differ = await call({
      method: 'POST',
      url: '/admin/users',
      headers: boss,
      payload: { le: 'a@b.co', lp: TEST_PASSWORD, lp_confirm: 'other', ut: 'user' },
    });
    expect(differ.status).toBe(400);
    expect(differ.body.message).toContain(adminMessages.passwordsDiffer);
  });

  it('creates an account that signs in, and refuses a taken address with 409', async () => {
    const user = await createUser();
    const me = await call({ method: 'GET', url: '/user', headers: user.headers });
    expect(me.body.email).toBe(user.email);
    const again = await call({
      method: 'POST',
      url: '/admin/users',
      headers: boss,
      payload: { le: user.email, lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut: 'user' },
    });
    expect(again.status).toBe(409);
  });

  it('edits e-mail and type; a blank password leaves it unchanged', async () => {
    const user = await createUser();
    const newEmail = `renamed${people}@example.com`;
    const edit = await call({
      method: 'PUT',
      url: `/admin/users/${user.id}`,
      headers: boss,
      payload: { le: newEmail, lp: '', ut: 'agency' },
    });
    expect(edit.status).toBe(200);
    const info = await call({ method: 'GET', url: `/admin/users/${newEmail}`, headers: boss });
    expect(info.body).toMatchObject({ email: newEmail, role: { name: 'Agency' }, status: 'active' });
    // The old token carries the old e-mail and groups: it must not put them back.
    expect((await call({ method: 'GET', url: '/user', headers: user.headers })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fresh = bearer(await poolSignIn(t.app, t.config, newEmail));
    expect((await call({ method: 'GET', url: '/user', headers: fresh })).body.role.name).toBe('Agency');
  });

  it('lists users by page, search and role', async () => {
    const agency = await createUser('agency');
    const page = await call({ method: 'GET', url: '/admin/users?limit=2', headers: boss });
    expect(page.body.users).toHaveLength(2);
    expect(page.body.total_users_count).toBeGreaterThan(2);
    const found = await call({
      method: 'GET',
      url: `/admin/users?search=${agency.email.toUpperCase()}`,
      headers: boss,
    });
    expect(found.body.users.map((u: { email: string }) => u.email)).toEqual([agency.email]);
    const agencies = await call({ method: 'GET', url: '/admin/users?role=Agency', headers: boss });
    expect(agencies.body.users.every((u: { role_name: string }) => u.role_name === 'Agency')).toBe(true);
  });

  it("shows one user's credits, plan, status, key and times", async () => {
    const user = await createUser();
    await call({ method: 'PUT', url: '/apikey', headers: user.headers });
    const info = await call({ method: 'GET', url: `/admin/users/${user.id}`, headers: boss });
    expect(info.body).toMatchObject({ credits: 0, plan: 'Pay as you go', status: 'active' });
    expect(info.body.api_key_last4).toMatch(/^[A-Za-z0-9]{4}$/);
    expect(info.body.last_sign_in_at).not.toBeNull();
    expect(
      (await call({ method: 'GET', url: '/admin/users/nobody@example.com', headers: boss })).status,
    ).toBe(404);
  });
});

describe('credits', () => {
  it('adjusts up and down with a reason, never below zero, in the ledger and the audit log', async () => {
    const user = await createUser();
    expect((await adjust(user.id, 10)).body.credits).toBe(10);
    expect((await adjust(user.id, -4)).body.credits).toBe(6);
    expect((await adjust(user.id, -7)).status).toBe(402);
    const noReason = await call({
      method: 'POST',
      url: `/admin/users/${user.id}/credits`,
      headers: boss,
      payload: { plan_credits: 5 },
    });
    expect(noReason.status).toBe(400);
    const ledger = await t.database.db
      .selectFrom('credit_ledger')
      .select(['delta', 'note', 'kind'])
      .where('profile_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(ledger).toEqual([
      { delta: 10, kind: 'adjustment', note: 'boss@example.com: goodwill' },
      { delta: -4, kind: 'adjustment', note: 'boss@example.com: goodwill' },
    ]);
    const audit = await call({ method: 'GET', url: `/admin/audit?subject_id=${user.id}`, headers: boss });
    expect(audit.body.entries.filter((e: { action: string }) => e.action === 'credits.adjust')).toHaveLength(
      2,
    );
  });
});

describe('acting as a user', () => {
  it('answers as the user, says so in headers, is audited and paid by the user', async () => {
    const user = await createUser();
    await adjust(user.id, 5);
    const act = await call({ method: 'POST', url: `/admin/users/${user.id}/act-as`, headers: boss });
    expect(act.status).toBe(200);
    const as = bearer(act.body.token);
    const check = await call({ method: 'GET', url: '/verify?p=2012345678', headers: as });
    expect(check.status).toBe(200);
    expect(check.headers[ACTING_AS_HEADER]).toBe(user.email);
    expect(check.headers[ACTING_ADMIN_HEADER]).toBe('boss@example.com');
    const info = await call({ method: 'GET', url: `/admin/users/${user.id}`, headers: boss });
    expect(info.body.credits).toBe(4);
    const audit = await call({ method: 'GET', url: `/admin/audit?subject_id=${user.id}`, headers: boss });
    expect(audit.body.entries[0]).toMatchObject({
      action: 'act_as.request',
      actor_email: 'boss@example.com',
      subject_email: user.email,
      detail: { method: 'GET', path: '/verify', status: 200 },
    });
  });

  it('an act-as token opens no admin route: it cannot act as another or create admins', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const as = bearer(
      (await call({ method: 'POST', url: `/admin/users/${user.id}/act-as`, headers: boss })).body.token,
    );
    expect((await call({ method: 'POST', url: `/admin/users/${other.id}/act-as`, headers: as })).status).toBe(
      403,
    );
    const create = await call({
      method: 'POST',
      url: '/admin/users',
      headers: as,
      payload: { le: 'x@example.com', lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut: 'admin' },
    });
    expect(create.status).toBe(403);
  });

  it('nobody acts as a Super Admin, and an Admin does not touch admins', async () => {
    const admin = await createUser('admin');
    const bossId = (await call({ method: 'GET', url: '/user', headers: boss })).body.userId;
    expect(
      (await call({ method: 'POST', url: `/admin/users/${bossId}/act-as`, headers: admin.headers })).status,
    ).toBe(403);
    const otherAdmin = await createUser('admin');
    expect(
      (await call({ method: 'DELETE', url: `/admin/users/${otherAdmin.id}`, headers: admin.headers })).status,
    ).toBe(403);
    const makeAdmin = await call({
      method: 'POST',
      url: '/admin/users',
      headers: admin.headers,
      payload: { le: 'y@example.com', lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut: 'admin' },
    });
    expect(makeAdmin.status).toBe(403);
    expect((await call({ method: 'GET', url: '/admin/audit', headers: admin.headers })).status).toBe(403);
    await createUser('user', admin.headers);
  });
});

describe('disable, enable, reset password, sign out', () => {
  it('a disabled account stops at once: key, token, act-as token, queued jobs (refunded)', async () => {
    const user = await createUser();
    await adjust(user.id, 10);
    const key = (await call({ method: 'PUT', url: '/apikey', headers: user.headers })).body.api_key;
    expect((await call({ method: 'GET', url: '/credits', headers: { 'x-api-key': key } })).status).toBe(200);
    const as = bearer(
      (await call({ method: 'POST', url: `/admin/users/${user.id}/act-as`, headers: boss })).body.token,
    );
    const job = await createJob(t.database.db, {
      profileId: user.id,
      fileName: 'a.csv',
      fileMethod: 'api',
      phoneCol: 0,
      headerRow: true,
      mapping: {},
    });
    await submitJob(t.database.db, job, 3);

    const disabled = await call({ method: 'DELETE', url: `/admin/users/${user.id}`, headers: boss });
    expect(disabled.body.message).toBe(adminMessages.userDisabled);
    for (const headers of [{ 'x-api-key': key }, user.headers, as]) {
      const refused = await call({ method: 'GET', url: '/credits', headers });
      expect(refused.status).toBe(401);
    }
    const failed = await t.database.db
      .selectFrom('bulk_jobs')
      .selectAll()
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'failed', credits_reversed: 3 });
    const info = await call({ method: 'GET', url: `/admin/users/${user.id}`, headers: boss });
    expect(info.body).toMatchObject({ status: 'disabled', credits: 10 });
    await expect(poolSignIn(t.app, t.config, user.email)).rejects.toThrow(/NotAuthorized/);

    await call({ method: 'POST', url: `/admin/users/${user.id}/enable`, headers: boss });
    expect((await call({ method: 'GET', url: '/credits', headers: { 'x-api-key': key } })).status).toBe(200);
    // The tokens from before the disable stay dead; a new sign-in works.
    expect((await call({ method: 'GET', url: '/credits', headers: user.headers })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fresh = bearer(await poolSignIn(t.app, t.config, user.email));
    expect((await call({ method: 'GET', url: '/credits', headers: fresh })).status).toBe(200);
  });

  it("resets a password with the seed's checks; earlier tokens stop working", async () => {
    const user = await createUser();
    const reset = (password: string, confirm_password: string) =>
      call({
        method: 'PUT',
        url: `/admin/users/${user.id}/password`,
        headers: boss,
        payload: { password, confirm_password },
      });
    expect((await reset('', '')).body.message).toContain(adminMessages.passwordBlank);
    expect((await reset('abc', 'abc')).body.message).toContain(adminMessages.passwordTooShort);
    expect((await reset('Abcdefgh1', 'Abcdefgh2')).body.message).toContain(adminMessages.confirmMismatch);
    expect((await reset('New-Password-9', 'New-Password-9')).status).toBe(200);
    expect((await call({ method: 'GET', url: '/user', headers: user.headers })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await poolSignIn(t.app, t.config, user.email, 'New-Password-9');
  });

  it('signs a user out everywhere', async () => {
    const user = await createUser();
    await call({ method: 'POST', url: `/admin/users/${user.id}/sign-out`, headers: boss });
    expect((await call({ method: 'GET', url: '/user', headers: user.headers })).status).toBe(401);
  });
});

describe('the audit log', () => {
  it('is append-only, even to SQL', async () => {
    await expect(sql`delete from audit_log`.execute(t.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`update audit_log set action = 'x'`.execute(t.database.db)).rejects.toThrow(
      /append-only/,
    );
  });
});

describe("a user's purchase history", () => {
  it('lists what the user paid for, as the user sees it on their own history', async () => {
    const pat = await createUser();
    await recordPurchase(t.database.db, {
      profileId: pat.id,
      kind: 'purchase',
      planReference: '79541679412213',
      planName: 'STANDARD',
      amountCents: 2500,
      credits: 1000,
      bonusCredits: 0,
      unlimited: null,
      providerObjectId: 'pi_admin_history',
    });
    const own = await call({ method: 'GET', url: '/purchases', headers: pat.headers });
    const seen = await call({ method: 'GET', url: `/admin/users/${pat.id}/purchases`, headers: boss });
    expect(seen.status).toBe(200);
    expect(seen.body.purchases).toHaveLength(1);
    expect(seen.body.purchases[0]).toMatchObject({ plan_name: 'STANDARD', credits_added: 1000 });
    expect(seen.body).toEqual(own.body);
  });
});

describe('Agency client accounts', () => {
  const info = (id: string, by: Record<string, string>) =>
    call({ method: 'GET', url: `/admin/users/${id}`, headers: by });

  it('an Agency lists, reads, creates, edits, disables and acts as its own clients only', async () => {
    const agency = await createUser('agency');
    const client = await createUser('user', agency.headers);
    const stranger = await createUser();
    const list = await call({ method: 'GET', url: '/admin/users', headers: agency.headers });
    expect(list.body).toMatchObject({
      total_users_count: 1,
      users: [{ email: client.email, role_name: 'User' }],
    });
    expect((await info(client.id, agency.headers)).body).toMatchObject({
      email: client.email,
      agency: { user_id: agency.id, email: agency.email },
    });
    // Not a client: the same 404 as an address nobody has, so e-mails cannot be probed.
    for (const other of [stranger.id, stranger.email]) {
      const refused = await info(other, agency.headers);
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe(`No account ${other.includes('@') ? 'for' : 'with id'} ${other}.`);
    }
    expect(
      (await call({ method: 'DELETE', url: `/admin/users/${stranger.id}`, headers: agency.headers })).status,
    ).toBe(404);

    expect(
      (await call({ method: 'GET', url: `/admin/users/${client.id}/purchases`, headers: agency.headers }))
        .body,
    ).toEqual({ purchases: [] });

    await adjust(client.id, 3);
    const act = await call({
      method: 'POST',
      url: `/admin/users/${client.id}/act-as`,
      headers: agency.headers,
    });
    expect(act.status).toBe(200);
    const check = await call({ method: 'GET', url: '/verify?p=2012345678', headers: bearer(act.body.token) });
    expect(check.status).toBe(200);
    expect(check.headers[ACTING_ADMIN_HEADER]).toBe(agency.email);
    const audit = await call({ method: 'GET', url: `/admin/audit?subject_id=${client.id}`, headers: boss });
    expect(audit.body.entries.slice(0, 2)).toMatchObject([
      { action: 'act_as.request', actor_email: agency.email, detail: { path: '/verify', status: 200 } },
      { action: 'act_as.start', actor_email: agency.email },
    ]);
    expect(
      (await call({ method: 'POST', url: `/admin/users/${stranger.id}/act-as`, headers: agency.headers }))
        .status,
    ).toBe(404);
    // Edits and disabling come after the act-as check: each ends the tokens issued before it.
    const renamed = `client${people}@renamed.example`;
    const edit = await call({
      method: 'PUT',
      url: `/admin/users/${client.id}`,
      headers: agency.headers,
      payload: { le: renamed, full_name: 'Pat Client', lp: '', ut: 'user' },
    });
    expect(edit.status).toBe(200);
    expect((await info(client.id, agency.headers)).body).toMatchObject({
      email: renamed,
      user_name: 'Pat Client',
    });
    expect(
      (await call({ method: 'DELETE', url: `/admin/users/${client.id}`, headers: agency.headers })).status,
    ).toBe(200);
    expect((await info(client.id, agency.headers)).body.status).toBe('disabled');
    expect(
      (await call({ method: 'POST', url: `/admin/users/${client.id}/enable`, headers: agency.headers }))
        .status,
    ).toBe(200);
  });

  it('an Agency may not change types, link accounts, adjust credits or read the audit log', async () => {
    const agency = await createUser('agency');
    const client = await createUser('user', agency.headers);
    const create = (ut: string, extra = {}) =>
      call({
        method: 'POST',
        url: '/admin/users',
        headers: agency.headers,
        payload: {
          le: `agency-made${++people}@example.com`,
          lp: TEST_PASSWORD,
          lp_confirm: TEST_PASSWORD,
          ut,
          ...extra,
        },
      });
    const madeAgency = await create('agency');
    expect(madeAgency.status).toBe(403);
    expect(madeAgency.body.message).toBe(
      'Creating an Agency account is refused. An Agency manages User accounts only.',
    );
    expect((await create('admin')).status).toBe(403);
    expect((await create('user', { agency: 'boss@example.com' })).status).toBe(403);
    const retype = await call({
      method: 'PUT',
      url: `/admin/users/${client.id}`,
      headers: agency.headers,
      payload: { ut: 'agency' },
    });
    expect(retype.status).toBe(403);
    expect((await adjust(client.id, 5, agency.headers)).status).toBe(403);
    expect((await call({ method: 'GET', url: '/admin/audit', headers: agency.headers })).status).toBe(403);
    expect((await info(client.id, boss)).body).toMatchObject({ role: { name: 'User' }, credits: 0 });
    // Nothing half-made: the refused accounts do not exist.
    const users = await call({ method: 'GET', url: '/admin/users', headers: agency.headers });
    expect(users.body.users.map((u: { email: string }) => u.email)).toEqual([client.email]);
  });

  it('an admin links and unlinks a User account, and only to an Agency', async () => {
    const [agency, other] = [await createUser('agency'), await createUser('agency')];
    const created = await call({
      method: 'POST',
      url: '/admin/users',
      headers: boss,
      payload: {
        le: `linked${++people}@example.com`,
        lp: TEST_PASSWORD,
        lp_confirm: TEST_PASSWORD,
        ut: 'user',
        agency: agency.email,
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.user_id as string;
    expect((await info(id, boss)).body.agency).toEqual({ user_id: agency.id, email: agency.email });
    expect((await info(id, agency.headers)).status).toBe(200);

    const put = (payload: object) =>
      call({ method: 'PUT', url: `/admin/users/${id}`, headers: boss, payload });
    expect((await put({ agency: other.id })).status).toBe(200);
    expect((await info(id, agency.headers)).status).toBe(404);
    expect((await info(id, other.headers)).status).toBe(200);
    const notAgency = await put({ agency: 'boss@example.com' });
    expect(notAgency.status).toBe(400);
    expect(notAgency.body.message).toContain('boss@example.com is not an Agency account');
    const adminClient = await put({ ut: 'admin', agency: other.id });
    expect(adminClient.status).toBe(400);
    expect(adminClient.body.message).toContain("only a User account can be an Agency's client");
    expect((await put({ agency: null })).status).toBe(200);
    expect((await info(id, boss)).body.agency).toBeNull();
    expect((await info(id, other.headers)).status).toBe(404);
  });
});

describe('refused act-as tokens', () => {
  const refusals = async (subjectId: string) =>
    (
      await call({ method: 'GET', url: `/admin/audit?subject_id=${subjectId}`, headers: boss })
    ).body.entries.filter((e: { action: string }) => e.action === 'act_as.refused');

  it('are written to the audit log (who, as whom, path, reason), once a minute per token and reason', async () => {
    const agency = await createUser('agency');
    const client = await createUser('user', agency.headers);
    const token = (
      await call({ method: 'POST', url: `/admin/users/${client.id}/act-as`, headers: agency.headers })
    ).body.token;
    // The client leaves the Agency: the Agency's token no longer acts as it.
    await call({ method: 'PUT', url: `/admin/users/${client.id}`, headers: boss, payload: { agency: null } });
    for (let i = 0; i < 3; i++) {
      expect((await call({ method: 'GET', url: '/credits?x=1', headers: bearer(token) })).status).toBe(403);
    }
    expect(await refusals(client.id)).toMatchObject([
      {
        actor_email: agency.email,
        subject_email: client.email,
        detail: { method: 'GET', path: '/credits', status: 403, code: 'forbidden' },
      },
    ]);
    // Back with the Agency but disabled: another reason, another entry.
    await call({
      method: 'PUT',
      url: `/admin/users/${client.id}`,
      headers: boss,
      payload: { agency: agency.id },
    });
    await call({ method: 'DELETE', url: `/admin/users/${client.id}`, headers: boss });
    const disabled = await call({ method: 'GET', url: '/user', headers: bearer(token) });
    expect(disabled.status).toBe(401);
    const entries = await refusals(client.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      detail: { path: '/user', status: 401, reason: disabled.body.message },
    });
  });

  it('an expired token is recorded; a forged one is refused without an entry', async () => {
    const user = await createUser();
    const [head, body] = (
      await call({ method: 'POST', url: `/admin/users/${user.id}/act-as`, headers: boss })
    ).body.token.split('.');
    const forged = `${head}.${body}.${'A'.repeat(43)}`;
    const before = (await call({ method: 'GET', url: '/admin/audit', headers: boss })).body
      .total_entries_count;
    expect((await call({ method: 'GET', url: '/user', headers: bearer(forged) })).status).toBe(401);
    expect((await call({ method: 'GET', url: '/admin/audit', headers: boss })).body.total_entries_count).toBe(
      before,
    );

    const { ActAsTokens } = await import('../auth/act-as-tokens.js');
    const bossId = (await call({ method: 'GET', url: '/user', headers: boss })).body.userId;
    const realNow = Date.now;
    Date.now = () => realNow() - 60 * 60 * 1000;
    const expired = await new ActAsTokens(t.database.db)
      .issue({ userId: user.id, adminId: bossId, adminEmail: 'boss@example.com' })
      .finally(() => {
        Date.now = realNow;
      });
    const refused = await call({ method: 'GET', url: '/user', headers: bearer(expired.token) });
    expect(refused.body.error.code).toBe('token_expired');
    expect(await refusals(user.id)).toMatchObject([
      {
        actor_email: 'boss@example.com',
        subject_email: user.email,
        detail: { code: 'token_expired', path: '/user' },
      },
    ]);
  });
});
