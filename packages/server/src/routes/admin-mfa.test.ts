import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { poolRegister, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * `SCRUB_REQUIRE_MFA_FOR=admin` on the built-in pool, PGlite and PostgreSQL: every admin (named in
 * SCRUB_ADMIN_EMAILS, or put in the Admin group by another admin) without an authenticator is sent
 * to enrol at sign-in (MFA_SETUP) and cannot turn it off; a token whose admin has no authenticator
 * (reset after a lost phone) is refused the admin area (403 `mfa_required`) but keeps their own
 * account's routes.
 */
describe.each(testDatabases())(
  'admins required to use a second factor on $kind',
  (database: TestDatabase) => {
    let t: TestApp;
    /** The first admin's ID token, signed in with a code. */
    let rootToken: string;

    beforeAll(async () => {
      t = await createTestApp(
        { adminEmails: ['root@example.com'], requireMfaFor: ['admin'], runBulkWorker: false },
        { database: await database.open() },
      );
    }, 60_000);
    afterAll(() => t?.close());

    async function identity(operation: string, payload: object) {
      const res = await identityAnswer(operation, payload);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    }
    function identityAnswer(operation: string, payload: object) {
      return t.app.inject({
        method: 'POST',
        url: '/identity',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
        },
        payload: JSON.stringify(payload),
      });
    }
    const initiate = (email: string) =>
      identity('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: t.config.localIdentity.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: TEST_PASSWORD },
      });
    const code = (secret: string, offset = 0) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });
    const get = async (url: string, idToken: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${idToken}` } });
      return { status: res.statusCode, code: res.json().error?.code as string | undefined };
    };

    /** A sign-in that must first enrol an authenticator (MFA_SETUP): its secret and ID and access tokens. */
    async function enrolAtSignIn(email: string) {
      const setup = await initiate(email);
      expect(setup).toMatchObject({ ChallengeName: 'MFA_SETUP' });
      const { SecretCode, Session } = await identity('AssociateSoftwareToken', { Session: setup.Session });
      const verified = await identity('VerifySoftwareToken', { Session, UserCode: code(SecretCode) });
      const signedIn = await identity('RespondToAuthChallenge', {
        ClientId: t.config.localIdentity.clientId,
        ChallengeName: 'MFA_SETUP',
        Session: verified.Session,
        ChallengeResponses: { USERNAME: email },
      });
      const { IdToken, AccessToken } = signedIn.AuthenticationResult;
      return { secret: SecretCode as string, idToken: IdToken as string, accessToken: AccessToken as string };
    }
    /** Turning authenticator codes off: refused to every admin. */
    async function turnOff(accessToken: string) {
      const res = await identityAnswer('SetUserMFAPreference', {
        AccessToken: accessToken,
        SoftwareTokenMfaSettings: { Enabled: false },
      });
      return { status: res.statusCode, message: res.json().message as string | undefined };
    }

    it('sends an admin named in SCRUB_ADMIN_EMAILS to enrol at sign-in; they cannot turn it off', async () => {
      await poolRegister(t.app, t.database.db, t.config, 'root@example.com');
      const root = await enrolAtSignIn('root@example.com');
      expect((await get('/admin/users', root.idToken)).status).toBe(200);
      expect(await turnOff(root.accessToken)).toEqual({
        status: 400,
        message: expect.stringMatching(/role requires/),
      });

      const challenge = await initiate('root@example.com');
      expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
      const signedIn = await identity('RespondToAuthChallenge', {
        ClientId: t.config.localIdentity.clientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: 'root@example.com', SOFTWARE_TOKEN_MFA_CODE: code(root.secret, 1) },
      });
      rootToken = signedIn.AuthenticationResult.IdToken;
      expect((await get('/admin/users', rootToken)).status).toBe(200);
    });

    it('sends a new admin to enrol at sign-in; a plain user signs in with a password only', async () => {
      for (const [email, ut] of [
        ['ada@example.com', 'admin'],
        ['bea@example.com', 'admin'],
        ['sam@example.com', 'user'],
      ] as const) {
        const created = await t.app.inject({
          method: 'POST',
          url: '/admin/users',
          headers: { authorization: `Bearer ${rootToken}` },
          payload: { le: email, lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut },
        });
        expect(created.statusCode, created.body).toBe(201);
      }
      expect((await initiate('sam@example.com')).AuthenticationResult.IdToken).toEqual(expect.any(String));

      const ada = await enrolAtSignIn('ada@example.com');
      expect((await get('/admin/users', ada.idToken)).status).toBe(200);
      expect((await turnOff(ada.accessToken)).status).toBe(400);
    });

    it('refuses the admin area to a token whose admin has no authenticator any more, until they enrol', async () => {
      const bea = await enrolAtSignIn('bea@example.com');
      // A lost phone: the pool forgets her authenticator (AdminSetUserMFAPreference, Enabled false).
      const [user] = (
        await sql<{ sub: string }>`select sub from identity_users where email = 'bea@example.com'`.execute(
          t.database.db,
        )
      ).rows;
      await sql`delete from identity_software_tokens where user_sub = ${user?.sub}`.execute(t.database.db);
      expect(await get('/admin/users', bea.idToken)).toEqual({ status: 403, code: 'mfa_required' });
      expect((await get('/user', bea.idToken)).status).toBe(200);

      const again = await enrolAtSignIn('bea@example.com');
      expect((await get('/admin/users', again.idToken)).status).toBe(200);
    });
  },
);
