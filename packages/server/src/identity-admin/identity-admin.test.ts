import { randomUUID } from 'node:crypto';
import {
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { IdentityPool } from '@scrub/cognito-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { Mailer } from '../mail/mailer.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { BuiltInIdentityAdmin } from './built-in-identity-admin.js';
import { CognitoIdentityAdmin } from './cognito-identity-admin.js';
import type { IdentityAdmin } from './identity-admin.js';

/** One implementation under test, and how to look at a user from outside the interface. */
interface Subject {
  admin: IdentityAdmin;
  look(sub: string): Promise<{ email: string; enabled: boolean; groups: string[] }>;
  /** Answers whether the password signs in (a refresh token when it does). */
  signIn(email: string, password: string): Promise<string | null>;
  refresh(refreshToken: string): Promise<boolean>;
  cleanUp(subs: string[]): Promise<void>;
  close(): Promise<void>;
}

async function builtIn(): Promise<Subject> {
  const database: DatabaseHandle = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
  const pool = await IdentityPool.create({
    db: database.db,
    mailer: new Mailer({ db: database.db, logger: false, from: 'test@localhost', smtpUrl: null }),
    logger: false,
    userPoolId: 'us-east-1_suite',
    clientId: 'suiteclient',
    publicUrl: () => 'http://localhost:1',
    tokenTtlSeconds: 3600,
    refreshTokenTtlSeconds: 3600,
    keyDir: null,
  });
  const attempt = async <T>(run: () => Promise<T>) => run().catch(() => null);
  return {
    admin: new BuiltInIdentityAdmin(pool),
    async look(sub) {
      const user = await pool.admin.adminGetUser(sub);
      if (!user) throw new Error('no such user');
      return { email: user.email, enabled: user.enabled, groups: user.groups };
    },
    async signIn(email, password) {
      const result = await attempt(() =>
        pool.initiateAuth({
          ClientId: 'suiteclient',
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
      return result && 'AuthenticationResult' in result
        ? (result.AuthenticationResult.RefreshToken ?? null)
        : null;
    },
    async refresh(token) {
      const result = await attempt(() =>
        pool.initiateAuth({
          ClientId: 'suiteclient',
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: token },
        }),
      );
      return result !== null;
    },
    async cleanUp() {},
    close: () => database.close(),
  };
}

/**
 * A real Amazon Cognito user pool, set up as docs/identity.md says (e-mail usernames, the role
 * groups, an app client with USER_PASSWORD_AUTH and token revocation), and AWS credentials.
 */
const cognitoSettings = {
  poolId: process.env.SCRUB_TEST_COGNITO_USER_POOL_ID,
  clientId: process.env.SCRUB_TEST_COGNITO_CLIENT_ID,
  credentials: Boolean(process.env.AWS_ACCESS_KEY_ID || process.env.AWS_PROFILE),
};
const haveCognito = Boolean(
  cognitoSettings.poolId && cognitoSettings.clientId && cognitoSettings.credentials,
);

async function cognito(): Promise<Subject> {
  const UserPoolId = cognitoSettings.poolId as string;
  const ClientId = cognitoSettings.clientId as string;
  const region = UserPoolId.split('_')[0] as string;
  const client = new CognitoIdentityProviderClient({ region });
  const attempt = async <T>(run: () => Promise<T>) => run().catch(() => null);
  return {
    admin: new CognitoIdentityAdmin({ region, userPoolId: UserPoolId, client }),
    async look(sub) {
      const user = await client.send(new AdminGetUserCommand({ UserPoolId, Username: sub }));
      const groups = await client.send(new AdminListGroupsForUserCommand({ UserPoolId, Username: sub }));
      return {
        email: user.UserAttributes?.find((a) => a.Name === 'email')?.Value ?? '',
        enabled: user.Enabled ?? false,
        groups: (groups.Groups ?? []).map((g) => g.GroupName ?? ''),
      };
    },
    async signIn(email, password) {
      const result = await attempt(() =>
        client.send(
          new InitiateAuthCommand({
            ClientId,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: email, PASSWORD: password },
          }),
        ),
      );
      return result?.AuthenticationResult?.RefreshToken ?? null;
    },
    async refresh(token) {
      const result = await attempt(() =>
        client.send(
          new InitiateAuthCommand({
            ClientId,
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            AuthParameters: { REFRESH_TOKEN: token },
          }),
        ),
      );
      return result !== null;
    },
    async cleanUp(subs) {
      for (const sub of subs)
        await attempt(() => client.send(new AdminDeleteUserCommand({ UserPoolId, Username: sub })));
    },
    async close() {
      client.destroy();
    },
  };
}

const PASSWORD = 'Suite-Password-1';

describe.each([
  { name: 'built-in pool', make: builtIn, skip: false },
  // Skipped without a test pool and AWS credentials (SCRUB_TEST_COGNITO_USER_POOL_ID, _CLIENT_ID).
  { name: 'Amazon Cognito', make: cognito, skip: !haveCognito },
])('identity admin operations: $name', ({ make, skip }) => {
  let s: Subject;
  const made: string[] = [];
  const newEmail = () => `suite-${randomUUID().slice(0, 8)}@example.com`;
  const create = async (role: 'User' | 'Admin' = 'User') => {
    const email = newEmail();
    const { sub } = await s.admin.createUser({ email, password: PASSWORD, role });
    made.push(sub);
    return { sub, email };
  };

  beforeAll(async () => {
    if (!skip) s = await make();
  });
  afterAll(async () => {
    if (skip) return;
    await s.cleanUp(made);
    await s.close();
  });

  it.skipIf(skip)('creates a confirmed user in the role group, who signs in', async () => {
    const user = await create('Admin');
    expect(await s.look(user.sub)).toMatchObject({ email: user.email, enabled: true, groups: ['Admin'] });
    expect(await s.signIn(user.email, PASSWORD)).not.toBeNull();
  });

  it.skipIf(skip)('refuses a taken address with 409 and a weak password with 400', async () => {
    const user = await create();
    const again = s.admin.createUser({ email: user.email, password: PASSWORD, role: 'User' });
    await expect(again).rejects.toMatchObject({ status: 409 });
    const weak = s.admin.createUser({ email: newEmail(), password: 'abc', role: 'User' });
    await expect(weak).rejects.toBeInstanceOf(ApiError);
    await expect(weak).rejects.toMatchObject({ status: 400 });
  });

  it.skipIf(skip)('changes the e-mail address, the sign-in name from then on', async () => {
    const user = await create();
    const email = newEmail();
    await s.admin.updateUserAttributes(user.sub, { email });
    expect((await s.look(user.sub)).email).toBe(email);
    expect(await s.signIn(email, PASSWORD)).not.toBeNull();
  });

  it.skipIf(skip)('sets a password: the old one and the old sessions stop working', async () => {
    const user = await create();
    const session = (await s.signIn(user.email, PASSWORD)) as string;
    await s.admin.setUserPassword(user.sub, 'Another-Password-2');
    expect(await s.signIn(user.email, PASSWORD)).toBeNull();
    expect(await s.signIn(user.email, 'Another-Password-2')).not.toBeNull();
    expect(await s.refresh(session)).toBe(false);
  });

  it.skipIf(skip)('deletes a user, who can no longer sign in; deleting them again is no error', async () => {
    const user = await create();
    await s.admin.deleteUser(user.sub);
    expect(await s.admin.isEnabled(user.sub)).toBeNull();
    expect(await s.signIn(user.email, PASSWORD)).toBeNull();
    await expect(s.admin.deleteUser(user.sub)).resolves.toBeUndefined();
  });

  it.skipIf(skip)('moves a user between role groups', async () => {
    const user = await create('Admin');
    await s.admin.setRole(user.sub, 'Agency');
    expect((await s.look(user.sub)).groups).toEqual(['Agency']);
    await s.admin.setRole(user.sub, 'User');
    expect((await s.look(user.sub)).groups).toEqual([]);
  });

  it.skipIf(skip)('disables (no sign-in) and enables again', async () => {
    const user = await create();
    expect(await s.admin.isEnabled(user.sub)).toBe(true);
    await s.admin.disableUser(user.sub);
    expect((await s.look(user.sub)).enabled).toBe(false);
    expect(await s.admin.isEnabled(user.sub)).toBe(false);
    expect(await s.signIn(user.email, PASSWORD)).toBeNull();
    await s.admin.enableUser(user.sub);
    expect(await s.admin.isEnabled(user.sub)).toBe(true);
    expect(await s.signIn(user.email, PASSWORD)).not.toBeNull();
  });

  it.skipIf(skip)('answers null for whether a user it does not know is enabled', async () => {
    expect(await s.admin.isEnabled(randomUUID())).toBeNull();
  });

  it.skipIf(skip)('signs a user out everywhere', async () => {
    const user = await create();
    const session = (await s.signIn(user.email, PASSWORD)) as string;
    await s.admin.globalSignOut(user.sub);
    expect(await s.refresh(session)).toBe(false);
  });

  it.skipIf(skip)('answers 404 for a user that does not exist', async () => {
    await expect(s.admin.disableUser(randomUUID())).rejects.toMatchObject({ status: 404 });
  });
});
