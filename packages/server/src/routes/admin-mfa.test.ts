import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * `SCRUB_REQUIRE_MFA_FOR=admin` on the built-in pool, PGlite and PostgreSQL: an admin without an
 * authenticator is refused the admin area (403 `mfa_required`) but keeps their own account's
 * routes; one in the Admin group is sent to enrol at sign-in (MFA_SETUP); once enrolled, both work.
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

    it('refuses the admin area to an admin without an authenticator, until they enrol', async () => {
      const idToken = await poolSignUp(t.app, t.database.db, t.config, 'root@example.com');
      expect(await get('/admin/users', idToken)).toEqual({ status: 403, code: 'mfa_required' });
      expect((await get('/user', idToken)).status).toBe(200);

      const { AccessToken } = (await initiate('root@example.com')).AuthenticationResult;
      const { SecretCode } = await identity('AssociateSoftwareToken', { AccessToken });
      await identity('VerifySoftwareToken', {
        AccessToken,
        UserCode: code(SecretCode),
        FriendlyDeviceName: 'phone',
      });
      await identity('SetUserMFAPreference', {
        AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      });
      expect((await get('/admin/users', idToken)).status).toBe(200);

      const challenge = await initiate('root@example.com');
      expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
      const signedIn = await identity('RespondToAuthChallenge', {
        ClientId: t.config.localIdentity.clientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: 'root@example.com', SOFTWARE_TOKEN_MFA_CODE: code(SecretCode, 1) },
      });
      rootToken = signedIn.AuthenticationResult.IdToken;
      expect((await get('/admin/users', rootToken)).status).toBe(200);
    });

    it('sends a new admin to enrol at sign-in; a plain user signs in with a password only', async () => {
      for (const [email, ut] of [
        ['ada@example.com', 'admin'],
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

      const setup = await initiate('ada@example.com');
      expect(setup).toMatchObject({ ChallengeName: 'MFA_SETUP' });
      const { SecretCode, Session } = await identity('AssociateSoftwareToken', { Session: setup.Session });
      const verified = await identity('VerifySoftwareToken', { Session, UserCode: code(SecretCode) });
      const signedIn = await identity('RespondToAuthChallenge', {
        ClientId: t.config.localIdentity.clientId,
        ChallengeName: 'MFA_SETUP',
        Session: verified.Session,
        ChallengeResponses: { USERNAME: 'ada@example.com' },
      });
      expect((await get('/admin/users', signedIn.AuthenticationResult.IdToken)).status).toBe(200);
    });
  },
);
