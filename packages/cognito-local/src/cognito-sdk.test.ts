import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
  type ISignUpResult,
} from 'amazon-cognito-identity-js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailBox } from './mail-box.js';
import { type RunningLocalCognito, startLocalCognito } from './start-local-cognito.js';

/**
 * The unmodified amazon-cognito-identity-js against the pool run on its own, as a developer would
 * point an app at it: only `endpoint` differs from a real Cognito pool. (The Scrub server's own
 * suite, `packages/server/src/wiring/cognito-sdk.test.ts`, covers the pool served by the service.)
 */
const PASSWORD = 'Correct-Horse-9';
let running: RunningLocalCognito;
let pool: CognitoUserPool;
const mailer = new MailBox();

function memoryStorage(): ICognitoStorage {
  const items = new Map<string, string>();
  return {
    setItem: (key, value) => void items.set(key, String(value)),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const userOf = (email: string) => new CognitoUser({ Username: email, Pool: pool, Storage: memoryStorage() });

const settle =
  <T>(resolve: (value: T) => void, reject: (error: unknown) => void) =>
  (error: unknown, value?: T) =>
    error ? reject(error) : resolve(value as T);

const signUp = (email: string, name: string) =>
  new Promise<ISignUpResult>((resolve, reject) =>
    pool.signUp(
      email,
      PASSWORD,
      [
        new CognitoUserAttribute({ Name: 'email', Value: email }),
        new CognitoUserAttribute({ Name: 'name', Value: name }),
      ],
      [],
      settle(resolve, reject),
    ),
  );

const confirm = (user: CognitoUser, code: string) =>
  new Promise<unknown>((resolve, reject) => user.confirmRegistration(code, true, settle(resolve, reject)));

const signIn = (user: CognitoUser, password = PASSWORD) =>
  new Promise<CognitoUserSession>((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: user.getUsername(), Password: password }), {
      onSuccess: resolve,
      onFailure: reject,
    }),
  );

const codeFor = (email: string) => {
  const code = mailer.latestCode(email);
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
};

beforeAll(async () => {
  running = await startLocalCognito({ mailer, groups: ['Admin', 'User'] });
  pool = new CognitoUserPool({
    UserPoolId: running.userPoolId,
    ClientId: running.clientId,
    endpoint: running.endpoint,
    Storage: memoryStorage(),
  });
});
afterAll(() => running?.close());

describe('amazon-cognito-identity-js against startLocalCognito()', () => {
  it('signs up, confirms with the e-mailed code, signs in with SRP; the tokens verify against the JWKS', async () => {
    const email = 'ann@example.com';
    const result = await signUp(email, 'Ann');
    expect(result.userConfirmed).toBe(false);
    expect(mailer.sent.at(-1)).toMatchObject({ kind: 'confirm_sign_up', to: email });
    const user = userOf(email);
    await confirm(user, codeFor(email));
    const session = await signIn(user);
    const jwks = createRemoteJWKSet(new URL(`${running.url}/${running.userPoolId}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(session.getIdToken().getJwtToken(), jwks, {
      issuer: `${running.url}/${running.userPoolId}`,
      audience: running.clientId,
    });
    expect(payload).toMatchObject({ email, email_verified: true, token_use: 'id', sub: result.userSub });
  });

  it('refuses a wrong password and an unconfirmed user as Cognito does', async () => {
    const wrong = await signIn(userOf('ann@example.com'), 'Wrong-Horse-9').catch((e: { code: string }) => e);
    expect(wrong).toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    await signUp('bob@example.com', 'Bob');
    const unconfirmed = await signIn(userOf('bob@example.com')).catch((e: { code: string }) => e);
    expect(unconfirmed).toMatchObject({ code: 'UserNotConfirmedException' });
  });

  it('resets a forgotten password with the e-mailed code, and refreshes a session', async () => {
    const email = 'cat@example.com';
    await signUp(email, 'Cat');
    await confirm(userOf(email), codeFor(email));
    const user = userOf(email);
    await new Promise((resolve, reject) => user.forgotPassword({ onSuccess: resolve, onFailure: reject }));
    await new Promise((resolve, reject) =>
      user.confirmPassword(codeFor(email), 'Brand-New-Horse-7', { onSuccess: resolve, onFailure: reject }),
    );
    const session = await signIn(userOf(email), 'Brand-New-Horse-7');
    const refreshed = await new Promise<CognitoUserSession>((resolve, reject) =>
      user.refreshSession(session.getRefreshToken(), settle(resolve, reject)),
    );
    expect(refreshed.getIdToken().payload.email).toBe(email);
  });

  it('puts the groups an admin adds into cognito:groups', async () => {
    const created = await running.pool.admin.adminCreateUser({
      email: 'dee@example.com',
      password: PASSWORD,
      groups: ['Admin'],
    });
    const session = await signIn(userOf('dee@example.com'));
    expect(session.getIdToken().payload['cognito:groups']).toEqual(['Admin']);
    expect(session.getIdToken().payload.sub).toBe(created.sub);
  });
});
