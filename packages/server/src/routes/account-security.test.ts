import { messages } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * What a second look at security found (issue 28, item 6), on PGlite and PostgreSQL: acting
 * sessions cannot take the account's credentials; a user's own sign-out everywhere and password
 * changes end their ID tokens at once; an account disabled in the user pool itself is refused
 * everywhere.
 */
describe.each(testDatabases())('account security on $kind', (database: TestDatabase) => {
  let t: TestApp;
  let boss: Record<string, string>;
  let people = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { adminEmails: ['boss@example.com'], runBulkWorker: false, apiKeyCacheSeconds: 1 },
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
  async function identity(operation: string, payload: object) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/identity',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function signIn(email: string, password = TEST_PASSWORD) {
    const answer = await identity('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: t.config.localIdentity.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    });
    return answer.AuthenticationResult as { IdToken: string; AccessToken: string };
  }
  /** An account made by the admin API (of `ut`, by `by`), signed in. */
  async function createUser(ut = 'user', by = boss) {
    const email = `person${++people}@example.com`;
    const created = await call({
      method: 'POST',
      url: '/admin/users',
      headers: by,
      payload: { le: email, lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut },
    });
    expect(created.status).toBe(201);
    const tokens = await signIn(email);
    return { id: created.body.user_id as string, email, tokens, headers: bearer(tokens.IdToken) };
  }
  const me = (headers: Record<string, string>) => call({ method: 'GET', url: '/user', headers });
  /** Tokens carry `iat` in seconds: a revocation ends the tokens of its own second too. */
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

  describe('acting sessions', () => {
    it("an admin acting as a user cannot rotate the user's API key: 403 saying why", async () => {
      const user = await createUser();
      const act = await call({ method: 'POST', url: `/admin/users/${user.id}/act-as`, headers: boss });
      const as = bearer(act.body.token);
      expect((await me(as)).status).toBe(200);
      const rotate = await call({ method: 'PUT', url: '/apikey', headers: as });
      expect(rotate.status).toBe(403);
      expect(rotate.body.message).toBe(messages.ownerOnly);
      expect((await me(user.headers)).body.api_key_id).toBeNull();
      // The owner still can.
      expect((await call({ method: 'PUT', url: '/apikey', headers: user.headers })).status).toBe(200);
    });

    it('an Agency acting for its client cannot either', async () => {
      const agency = await createUser('agency');
      const client = await createUser('user', agency.headers);
      const act = await call({
        method: 'POST',
        url: `/admin/users/${client.id}/act-as`,
        headers: agency.headers,
      });
      expect(act.status).toBe(200);
      const rotate = await call({ method: 'PUT', url: '/apikey', headers: bearer(act.body.token) });
      expect(rotate.status).toBe(403);
      expect(rotate.body.message).toMatch(/Acting sessions cannot do this/);
    });
  });

  describe("a user's own sign-out and password changes", () => {
    it('sign out everywhere ends the ID tokens at once', async () => {
      const user = await createUser();
      expect((await me(user.headers)).status).toBe(200);
      await identity('GlobalSignOut', { AccessToken: user.tokens.AccessToken });
      const after = await me(user.headers);
      expect(after.status).toBe(401);
      await nextSecond();
      expect((await me(bearer((await signIn(user.email)).IdToken))).status).toBe(200);
    });

    it("a password change ends the other sign-ins' ID tokens at once; the one that changed it goes on", async () => {
      const user = await createUser();
      const elsewhere = bearer((await signIn(user.email)).IdToken);
      expect((await me(elsewhere)).status).toBe(200);
      await identity('ChangePassword', {
        AccessToken: user.tokens.AccessToken,
        PreviousPassword: TEST_PASSWORD,
        ProposedPassword: 'Battery-Staple-8',
      });
      expect((await me(elsewhere)).status).toBe(401);
      expect((await me(user.headers)).status).toBe(200);
    });

    it('a password reset (confirm forgot-password) ends the ID tokens at once', async () => {
      const user = await createUser();
      const ClientId = t.config.localIdentity.clientId;
      await identity('ForgotPassword', { ClientId, Username: user.email });
      const mail = await t.database.db
        .selectFrom('mail_outbox')
        .select('subject')
        .where('to_address', '=', user.email)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const code = /(\d{6})$/.exec(mail.subject)?.[1];
      await identity('ConfirmForgotPassword', {
        ClientId,
        Username: user.email,
        ConfirmationCode: code,
        Password: 'Battery-Staple-9',
      });
      expect((await me(user.headers)).status).toBe(401);
    });
  });

  describe('an account disabled in the user pool itself', () => {
    it("stops its ID token and its API key (within the key cache's time), and charges nothing", async () => {
      const user = await createUser();
      await call({
        method: 'POST',
        url: `/admin/users/${user.id}/credits`,
        headers: boss,
        payload: { plan_credits: 5, reason: 'test' },
      });
      const key = (await call({ method: 'PUT', url: '/apikey', headers: user.headers })).body.api_key;
      const check = () => call({ method: 'GET', url: '/verify?p=2012345678', headers: { 'x-api-key': key } });
      expect((await check()).status).toBe(200);
      // What the pool's AdminDisableUser (the Cognito console's disable) sets, behind the service's back.
      await t.database.db
        .updateTable('identity_users')
        .set({ enabled: false })
        .where('email', '=', user.email)
        .execute();
      const token = await me(user.headers);
      expect(token.status).toBe(401);
      expect(token.body.error.code).toBe('account_disabled');
      await nextSecond();
      const refused = await check();
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('account_disabled');
      const credits = await call({ method: 'GET', url: `/admin/users/${user.id}`, headers: boss });
      expect(credits.body.credits).toBe(4);
    });
  });
});
