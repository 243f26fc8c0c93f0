import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase } from '@scrub/pglite-pool';
import { decodeJwt, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CognitoError } from './errors.js';
import type { HostDatabase } from './host-database.js';
import {
  type AuthenticationResult,
  IdentityPool,
  TokenRejected,
  verifyIdentityToken,
} from './identity-pool.js';
import { loadOrCreateKeys } from './keys.js';
import { MailBox } from './mail-box.js';
import { createIdentityTables } from './schema.js';

const CLIENT = 'testclient0000000000000000';
const PASSWORD = 'Pool-Password-1';

/** The pool's own API on an embedded database, with a clock the tests move. */
describe('the identity pool', () => {
  let db: HostDatabase;
  const mailer = new MailBox();
  let pool: IdentityPool;
  let clock: Date;
  const later = (seconds: number) => {
    clock = new Date(clock.getTime() + seconds * 1000);
  };

  const poolOptions = () => ({
    db,
    mailer,
    logger: false as const,
    userPoolId: 'us-east-1_testpool',
    clientId: CLIENT,
    publicUrl: () => 'http://scrub.test',
    tokenTtlSeconds: 3600,
    refreshTokenTtlSeconds: 30 * 86_400,
    keyDir: null,
    now: () => clock,
  });

  // One database for the suite (each test uses its own addresses); a fresh pool and clock per test.
  beforeAll(async () => {
    db = await openEmbeddedDatabase();
    await createIdentityTables(db);
    // The four roles the Scrub server seeds (its migration 0002).
    clock = new Date();
    const seeding = await IdentityPool.create(poolOptions());
    for (const [precedence, name] of ['Super Admin', 'Admin', 'Agency', 'User'].entries())
      await seeding.admin.createGroup({ name, precedence });
  });
  afterAll(() => db.destroy());
  beforeEach(async () => {
    clock = new Date();
    pool = await IdentityPool.create(poolOptions());
  });

  const signIn = async (email: string, password = PASSWORD) => {
    const answer = await pool.initiateAuth({
      ClientId: CLIENT,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    });
    if (!('AuthenticationResult' in answer)) throw new Error('expected tokens');
    return answer.AuthenticationResult as Required<AuthenticationResult>;
  };
  const refresh = (token: string) =>
    pool.initiateAuth({
      ClientId: CLIENT,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: token },
    });
  const rejection = async (action: Promise<unknown>) => {
    try {
      await action;
    } catch (error) {
      if (error instanceof CognitoError) return { type: error.type, message: error.message };
      if (error instanceof TokenRejected) return { reason: error.reason, message: error.message };
      throw error;
    }
    throw new Error('expected a failure');
  };
  const codeFor = async (email: string) => {
    const mail = mailer.sent.findLast((m) => m.to === email);
    return /code: (\d{6})/.exec(mail?.subject ?? '')?.[1] ?? '';
  };

  describe('admin operations', () => {
    it('creates a confirmed user who signs in at once; groups show in cognito:groups', async () => {
      const user = await pool.admin.adminCreateUser({
        email: 'Admin@Example.com',
        password: PASSWORD,
        name: 'Ada',
        groups: ['Admin'],
      });
      expect(user).toMatchObject({
        email: 'Admin@Example.com',
        emailVerified: true,
        status: 'CONFIRMED',
        enabled: true,
        groups: ['Admin'],
        name: 'Ada',
      });
      const tokens = await signIn('admin@example.com');
      expect(decodeJwt(tokens.IdToken)['cognito:groups']).toEqual(['Admin']);
      expect(decodeJwt(tokens.AccessToken)['cognito:groups']).toEqual(['Admin']);
      await pool.admin.adminAddUserToGroup(user.sub, 'Agency');
      expect(await pool.admin.adminListGroupsForUser(user.sub)).toEqual(['Admin', 'Agency']);
      await pool.admin.adminRemoveUserFromGroup(user.sub, 'Admin');
      const refreshed = await refresh(tokens.RefreshToken);
      if (!('AuthenticationResult' in refreshed)) throw new Error('expected tokens');
      expect(decodeJwt(refreshed.AuthenticationResult.IdToken)['cognito:groups']).toEqual(['Agency']);
    });

    it('knows the four roles as groups, refuses unknown groups and duplicates', async () => {
      expect((await pool.admin.listGroups()).map((g) => g.name)).toEqual([
        'Super Admin',
        'Admin',
        'Agency',
        'User',
      ]);
      const user = await pool.admin.adminCreateUser({ email: 'g@example.com', password: PASSWORD });
      expect(await rejection(pool.admin.adminAddUserToGroup(user.sub, 'Wizard'))).toMatchObject({
        type: 'ResourceNotFoundException',
      });
      await pool.admin.createGroup({ name: 'Auditor', precedence: 5 });
      expect(await rejection(pool.admin.createGroup({ name: 'Auditor' }))).toMatchObject({
        type: 'GroupExistsException',
      });
    });

    it('lists users by e-mail, a page at a time, narrowed by prefix', async () => {
      for (const name of ['b', 'a', 'd', 'c'])
        await pool.admin.adminCreateUser({ email: `list-${name}@example.com`, password: PASSWORD });
      await pool.admin.adminCreateUser({ email: 'listz@other.com', password: PASSWORD });
      const first = await pool.admin.listUsers({ limit: 2, emailPrefix: 'list-' });
      expect(first.users.map((u) => u.email)).toEqual(['list-a@example.com', 'list-b@example.com']);
      const second = await pool.admin.listUsers({ limit: 2, after: first.next!, emailPrefix: 'list-' });
      expect(second.users.map((u) => u.email)).toEqual(['list-c@example.com', 'list-d@example.com']);
      expect(second.next).toBeNull();
      expect((await pool.admin.listUsers({ emailPrefix: 'LISTZ' })).users.map((u) => u.email)).toEqual([
        'listz@other.com',
      ]);
      expect((await pool.admin.listUsers({ emailPrefix: '%' })).users).toEqual([]);
    });

    it('changes the e-mail (the sign-in name), refusing one that is taken', async () => {
      const user = await pool.admin.adminCreateUser({ email: 'old@example.com', password: PASSWORD });
      await pool.admin.adminCreateUser({ email: 'taken@example.com', password: PASSWORD });
      expect(
        await rejection(pool.admin.adminUpdateUserAttributes(user.sub, { email: 'TAKEN@example.com' })),
      ).toMatchObject({
        type: 'UsernameExistsException',
      });
      const updated = await pool.admin.adminUpdateUserAttributes(user.sub, {
        email: 'new@example.com',
        name: 'New Name',
      });
      expect(updated).toMatchObject({ email: 'new@example.com', name: 'New Name' });
      await signIn('new@example.com');
      expect(await rejection(signIn('old@example.com'))).toMatchObject({ type: 'NotAuthorizedException' });
    });

    it('disabling refuses sign-in and refresh and kills live tokens; enabling restores sign-in', async () => {
      const user = await pool.admin.adminCreateUser({ email: 'off@example.com', password: PASSWORD });
      const tokens = await signIn('off@example.com');
      await pool.admin.adminDisableUser(user.sub);
      expect(await rejection(signIn('off@example.com'))).toEqual({
        type: 'NotAuthorizedException',
        message: 'User is disabled.',
      });
      expect(await rejection(refresh(tokens.RefreshToken))).toMatchObject({ type: 'NotAuthorizedException' });
      expect(await rejection(pool.verifyToken(tokens.IdToken, 'id'))).toMatchObject({ reason: 'invalid' });
      expect(await rejection(pool.getUser({ AccessToken: tokens.AccessToken }))).toMatchObject({
        type: 'NotAuthorizedException',
      });
      await pool.admin.adminEnableUser(user.sub);
      await signIn('off@example.com');
    });

    it('setting a password replaces the old one and signs the user out everywhere', async () => {
      const user = await pool.admin.adminCreateUser({ email: 'pw@example.com', password: PASSWORD });
      const tokens = await signIn('pw@example.com');
      expect(await rejection(pool.admin.adminSetUserPassword(user.sub, 'short'))).toMatchObject({
        type: 'InvalidPasswordException',
      });
      await pool.admin.adminSetUserPassword(user.sub, 'Admin-Set-Password-7');
      expect(await rejection(signIn('pw@example.com'))).toMatchObject({ type: 'NotAuthorizedException' });
      await signIn('pw@example.com', 'Admin-Set-Password-7');
      expect(await rejection(refresh(tokens.RefreshToken))).toEqual({
        type: 'NotAuthorizedException',
        message: 'Refresh Token has been revoked',
      });
    });

    it('deleting removes the user, their sessions and codes', async () => {
      const user = await pool.admin.adminCreateUser({ email: 'gone@example.com', password: PASSWORD });
      const tokens = await signIn('gone@example.com');
      await pool.forgotPassword({ ClientId: CLIENT, Username: 'gone@example.com' });
      await pool.admin.adminDeleteUser(user.sub);
      expect(await pool.admin.adminGetUser(user.sub)).toBeNull();
      expect(await rejection(pool.verifyToken(tokens.AccessToken, 'access'))).toMatchObject({
        reason: 'invalid',
      });
      expect(await rejection(refresh(tokens.RefreshToken))).toMatchObject({ type: 'NotAuthorizedException' });
      expect(await rejection(pool.admin.adminDeleteUser(user.sub))).toMatchObject({
        type: 'UserNotFoundException',
      });
    });
  });

  describe('time', () => {
    it('ID and access tokens expire after their lifetime; the refresh token then gives new ones', async () => {
      await pool.admin.adminCreateUser({ email: 't@example.com', password: PASSWORD });
      const tokens = await signIn('t@example.com');
      await pool.verifyToken(tokens.IdToken, 'id');
      later(3601);
      expect(await rejection(pool.verifyToken(tokens.IdToken, 'id'))).toEqual({
        reason: 'expired',
        message: 'ID Token has expired',
      });
      expect(await rejection(pool.getUser({ AccessToken: tokens.AccessToken }))).toEqual({
        type: 'NotAuthorizedException',
        message: 'Access Token has expired',
      });
      const refreshed = await refresh(tokens.RefreshToken);
      if (!('AuthenticationResult' in refreshed)) throw new Error('expected tokens');
      await pool.verifyToken(refreshed.AuthenticationResult.IdToken, 'id');
    });

    it('the refresh token expires after 30 days', async () => {
      await pool.admin.adminCreateUser({ email: 'r@example.com', password: PASSWORD });
      const tokens = await signIn('r@example.com');
      later(30 * 86_400 + 1);
      expect(await rejection(refresh(tokens.RefreshToken))).toEqual({
        type: 'NotAuthorizedException',
        message: 'Refresh Token has expired',
      });
    });

    it('a sign-up code lasts 24 hours, a reset code 1 hour', async () => {
      await pool.signUp({ ClientId: CLIENT, Username: 'c@example.com', Password: PASSWORD });
      const code = await codeFor('c@example.com');
      later(24 * 3600 + 1);
      expect(
        await rejection(
          pool.confirmSignUp({ ClientId: CLIENT, Username: 'c@example.com', ConfirmationCode: code }),
        ),
      ).toMatchObject({
        type: 'ExpiredCodeException',
      });
      await pool.resendConfirmationCode({ ClientId: CLIENT, Username: 'c@example.com' });
      await pool.confirmSignUp({
        ClientId: CLIENT,
        Username: 'c@example.com',
        ConfirmationCode: await codeFor('c@example.com'),
      });
      await pool.forgotPassword({ ClientId: CLIENT, Username: 'c@example.com' });
      const reset = await codeFor('c@example.com');
      later(3601);
      expect(
        await rejection(
          pool.confirmForgotPassword({
            ClientId: CLIENT,
            Username: 'c@example.com',
            ConfirmationCode: reset,
            Password: 'New-Password-1',
          }),
        ),
      ).toMatchObject({ type: 'ExpiredCodeException' });
    });

    it('five wrong passwords make sign-in wait 30 s, doubling with each further one; a correct sign-in then clears the count', async () => {
      await pool.admin.adminCreateUser({ email: 'l@example.com', password: PASSWORD });
      for (let i = 0; i < 5; i++) await rejection(signIn('l@example.com', 'Wrong-Password-1'));
      expect(await rejection(signIn('l@example.com'))).toEqual({
        type: 'NotAuthorizedException',
        message: 'Password attempts exceeded',
      });
      later(31);
      expect(await rejection(signIn('l@example.com', 'Wrong-Password-1'))).toMatchObject({
        message: 'Incorrect username or password.',
      });
      later(31);
      expect(await rejection(signIn('l@example.com'))).toMatchObject({
        message: 'Password attempts exceeded',
      });
      later(30);
      await signIn('l@example.com');
      for (let i = 0; i < 4; i++) await rejection(signIn('l@example.com', 'Wrong-Password-1'));
      await signIn('l@example.com');
    });

    const signInFrom = async (address: string, email: string, password = PASSWORD) =>
      pool.initiateAuth(
        {
          ClientId: CLIENT,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password },
        },
        { address },
      );

    it('wrong passwords from one address do not lock the owner out from another', async () => {
      await pool.admin.adminCreateUser({ email: 'victim@example.com', password: PASSWORD });
      for (let i = 0; i < 12; i++) {
        await rejection(signInFrom('203.0.113.66', 'victim@example.com', 'Wrong-Password-1'));
        later(1);
      }
      expect(await rejection(signInFrom('203.0.113.66', 'victim@example.com'))).toMatchObject({
        message: 'Password attempts exceeded',
      });
      await expect(signInFrom('198.51.100.7', 'victim@example.com')).resolves.toHaveProperty(
        'AuthenticationResult',
      );
    });

    it('one address guessing across many names waits too, whatever the name', async () => {
      for (let i = 0; i < 20; i++)
        await rejection(signInFrom('203.0.113.77', `nobody${i}@example.com`, 'Wrong-1'));
      await pool.admin.adminCreateUser({ email: 'other@example.com', password: PASSWORD });
      expect(await rejection(signInFrom('203.0.113.77', 'other@example.com'))).toMatchObject({
        message: 'Password attempts exceeded',
      });
      await expect(signInFrom('198.51.100.8', 'other@example.com')).resolves.toHaveProperty(
        'AuthenticationResult',
      );
    });

    it('limits sign-ups from one address', async () => {
      const limited = await IdentityPool.create({
        ...poolOptions(),
        tuning: { signUps: { max: 2, windowSeconds: 3600 } },
      });
      const signUp = (email: string, address: string) =>
        limited.signUp({ ClientId: CLIENT, Username: email, Password: PASSWORD }, { address });
      await signUp('flood1@example.com', '203.0.113.88');
      await signUp('flood2@example.com', '203.0.113.88');
      expect(await rejection(signUp('flood3@example.com', '203.0.113.88'))).toEqual({
        type: 'LimitExceededException',
        message: 'Attempt limit exceeded, please try after some time.',
      });
      await signUp('flood3@example.com', '198.51.100.9');
    });

    it('forgot-password answers a known and an unknown e-mail alike, limit included', async () => {
      await pool.admin.adminCreateUser({ email: 'known@example.com', password: PASSWORD });
      const answers = async (email: string) => {
        const seen = [];
        for (let i = 0; i < 7; i++) {
          try {
            const { CodeDeliveryDetails } = await pool.forgotPassword({ ClientId: CLIENT, Username: email });
            seen.push(CodeDeliveryDetails.DeliveryMedium);
          } catch (error) {
            seen.push((error as CognitoError).type);
          }
        }
        return seen;
      };
      const known = await answers('known@example.com');
      expect(known).toEqual(await answers('unknown@example.com'));
      expect(known).toEqual([...Array(5).fill('EMAIL'), 'LimitExceededException', 'LimitExceededException']);
    });

    it('resending a confirmation code answers a confirmed, an unconfirmed and an unknown e-mail alike', async () => {
      await pool.admin.adminCreateUser({ email: 'confirmed@example.com', password: PASSWORD });
      await pool.signUp({ ClientId: CLIENT, Username: 'pending@example.com', Password: PASSWORD });
      const answer = async (email: string) => {
        const sent = mailer.sent.length;
        try {
          const { CodeDeliveryDetails } = await pool.resendConfirmationCode({
            ClientId: CLIENT,
            Username: email,
          });
          return { medium: CodeDeliveryDetails.DeliveryMedium, mailed: mailer.sent.length - sent };
        } catch (error) {
          return { medium: (error as CognitoError).type, mailed: mailer.sent.length - sent };
        }
      };
      expect(await answer('pending@example.com')).toEqual({ medium: 'EMAIL', mailed: 1 });
      expect(await answer('confirmed@example.com')).toEqual({ medium: 'EMAIL', mailed: 0 });
      expect(await answer('nobody@example.com')).toEqual({ medium: 'EMAIL', mailed: 0 });
      // The limit answers alike too: 4 resends a window (the sign-up's own code was the first of 5).
      const answers = async (email: string) => {
        const seen = [];
        for (let i = 0; i < 4; i++) seen.push((await answer(email)).medium);
        return seen;
      };
      const limited = ['EMAIL', 'EMAIL', 'EMAIL', 'LimitExceededException'];
      expect(await answers('pending@example.com')).toEqual(limited);
      expect(await answers('confirmed@example.com')).toEqual(limited);
      expect(await answers('nobody@example.com')).toEqual(limited);
    });

    it('wrong passwords spread over more than the window do not lock', async () => {
      await pool.admin.adminCreateUser({ email: 'w@example.com', password: PASSWORD });
      for (let i = 0; i < 8; i++) {
        await rejection(signIn('w@example.com', 'Wrong-Password-1'));
        later(5 * 60);
      }
      await signIn('w@example.com');
    });
  });

  it('two sign-ups with one e-mail at once: exactly one succeeds', async () => {
    const attempts = await Promise.allSettled(
      [0, 1, 2].map(() =>
        pool.signUp({ ClientId: CLIENT, Username: 'race@example.com', Password: PASSWORD }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of attempts.filter((x) => x.status === 'rejected')) {
      expect((a as PromiseRejectedResult).reason).toMatchObject({ type: 'UsernameExistsException' });
    }
  });

  it('stores no password: only a scrypt hash and an SRP verifier', async () => {
    await pool.admin.adminCreateUser({ email: 'secret@example.com', password: PASSWORD });
    const row = await db
      .selectFrom('identity_users')
      .selectAll()
      .where('email_key', '=', 'secret@example.com')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.srp_verifier).toMatch(/^[0-9a-f]{500,}$/);
  });

  describe('token verification', () => {
    const claims = (tokens: { IdToken: string }) => decodeJwt(tokens.IdToken);

    it('rejects a token signed by another key, even with the same kid and claims', async () => {
      await pool.admin.adminCreateUser({ email: 'k@example.com', password: PASSWORD });
      const real = await signIn('k@example.com');
      const { privateKey } = await generateKeyPair('RS256');
      const kid = pool.verification().jwks;
      const forged = await new SignJWT(claims(real))
        .setProtectedHeader({ alg: 'RS256', kid: 'keys' in kid ? kid.keys[0]!.kid! : '' })
        .sign(privateKey);
      expect(await rejection(verifyIdentityToken(forged, pool.verification(), 'id', clock))).toEqual({
        reason: 'invalid',
        message: 'Invalid ID Token',
      });
      expect(await rejection(pool.verifyToken(forged, 'id'))).toMatchObject({ reason: 'invalid' });
    });

    it('rejects alg "none" and an HMAC token keyed with the public key', async () => {
      await pool.admin.adminCreateUser({ email: 'n@example.com', password: PASSWORD });
      const real = await signIn('n@example.com');
      const unsigned = new UnsecuredJWT(claims(real)).encode();
      expect(await rejection(verifyIdentityToken(unsigned, pool.verification(), 'id', clock))).toMatchObject({
        reason: 'invalid',
      });
      const jwks = pool.verification().jwks;
      const publicJwk = 'keys' in jwks ? jwks.keys[0]! : (undefined as never);
      const hmac = await new SignJWT(claims(real))
        .setProtectedHeader({ alg: 'HS256', kid: publicJwk.kid })
        .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
      expect(await rejection(verifyIdentityToken(hmac, pool.verification(), 'id', clock))).toMatchObject({
        reason: 'invalid',
      });
    });

    it('rejects an expired token as expired, and tokens of another use, client or issuer as invalid', async () => {
      await pool.admin.adminCreateUser({ email: 'e@example.com', password: PASSWORD });
      const real = await signIn('e@example.com');
      const material = pool.verification();
      const future = new Date(clock.getTime() + 3601_000);
      expect(await rejection(verifyIdentityToken(real.IdToken, material, 'id', future))).toMatchObject({
        reason: 'expired',
      });
      expect(await rejection(verifyIdentityToken(real.AccessToken, material, 'id', clock))).toMatchObject({
        reason: 'invalid',
      });
      expect(await rejection(verifyIdentityToken(real.IdToken, material, 'access', clock))).toMatchObject({
        reason: 'invalid',
      });
      expect(
        await rejection(verifyIdentityToken(real.IdToken, { ...material, clientId: 'other' }, 'id', clock)),
      ).toMatchObject({
        reason: 'invalid',
      });
      expect(
        await rejection(
          verifyIdentityToken(real.IdToken, { ...material, issuer: 'https://elsewhere/pool' }, 'id', clock),
        ),
      ).toMatchObject({ reason: 'invalid' });
      await expect(verifyIdentityToken(real.AccessToken, material, 'access', clock)).resolves.toMatchObject({
        use: 'access',
      });
    });
  });
});

describe('the signing key', () => {
  it('is made on first start, kept private in the data directory, and the same on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scrub-keys-'));
    try {
      const first = await loadOrCreateKeys(join(dir, 'identity'));
      expect(statSync(join(dir, 'identity', 'keys.json')).mode & 0o777).toBe(0o600);
      const second = await loadOrCreateKeys(join(dir, 'identity'));
      expect(second.kid).toBe(first.kid);
      expect(second.jwks).toEqual(first.jwks);
      const [jwk] = first.jwks.keys;
      expect(Object.keys(jwk!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      const stored = JSON.parse(readFileSync(join(dir, 'identity', 'keys.json'), 'utf8'));
      expect(stored.privateJwk).toHaveProperty('d');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
