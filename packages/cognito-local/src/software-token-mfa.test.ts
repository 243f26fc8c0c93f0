import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
} from 'amazon-cognito-identity-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailBox } from './mail-box.js';
import { type RunningLocalCognito, startLocalCognito } from './start-local-cognito.js';

/**
 * Authenticator-app sign-in driven by the unmodified amazon-cognito-identity-js, as the dashboard
 * and the CLI drive it: enrol while signed in (associateSoftwareToken, verifySoftwareToken,
 * setUserMfaPreference), then sign in with a code (totpRequired, sendMFACode) in both flows; an
 * admin without a second factor is sent to enrol during sign-in (mfaSetup).
 */
const PASSWORD = 'Correct-Horse-9';
let running: RunningLocalCognito;
let pool: CognitoUserPool;

function memoryStorage(): ICognitoStorage {
  const items = new Map<string, string>();
  return {
    setItem: (key, value) => void items.set(key, String(value)),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const userOf = (email: string, flow: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' = 'USER_SRP_AUTH') => {
  const user = new CognitoUser({ Username: email, Pool: pool, Storage: memoryStorage() });
  user.setAuthenticationFlowType(flow);
  return user;
};

/** The code an authenticator app shows for this secret, `offset` steps from now. */
const codeFor = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

type Step = { kind: 'signed-in'; session: CognitoUserSession } | { kind: 'totp' } | { kind: 'setup' };

const signIn = (user: CognitoUser) =>
  new Promise<Step>((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: user.getUsername(), Password: PASSWORD }), {
      onSuccess: (session) => resolve({ kind: 'signed-in', session }),
      onFailure: reject,
      totpRequired: () => resolve({ kind: 'totp' }),
      mfaSetup: () => resolve({ kind: 'setup' }),
    }),
  );

const sendCode = (user: CognitoUser, code: string) =>
  new Promise<CognitoUserSession>((resolve, reject) =>
    user.sendMFACode(code, { onSuccess: resolve, onFailure: reject }, 'SOFTWARE_TOKEN_MFA'),
  );

const associate = (user: CognitoUser) =>
  new Promise<string>((resolve, reject) =>
    user.associateSoftwareToken({ associateSecretCode: resolve, onFailure: reject }),
  );

const verify = <T>(user: CognitoUser, code: string) =>
  new Promise<T>((resolve, reject) =>
    user.verifySoftwareToken(code, 'My phone', {
      onSuccess: (value) => resolve(value as T),
      onFailure: reject,
    }),
  );

const setPreference = (user: CognitoUser, enabled: boolean) =>
  new Promise<unknown>((resolve, reject) =>
    user.setUserMfaPreference(null, { Enabled: enabled, PreferredMfa: enabled }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

const failure = (action: Promise<unknown>) =>
  action.then(
    () => null,
    (error: { code: string }) => error.code,
  );

beforeAll(async () => {
  running = await startLocalCognito({
    mailer: new MailBox(),
    groups: ['Admin', 'User'],
    // The host names its requirement: a group, or (as the service's admin e-mails) an address.
    requireMfa: ({ groups, email, emailVerified }) =>
      groups.includes('Admin') || (emailVerified && email === 'root@example.com'),
  });
  pool = new CognitoUserPool({
    UserPoolId: running.userPoolId,
    ClientId: running.clientId,
    endpoint: running.endpoint,
    Storage: memoryStorage(),
  });
});
afterAll(() => running?.close());

describe('authenticator codes (SOFTWARE_TOKEN_MFA) with amazon-cognito-identity-js', () => {
  let secret: string;
  let recoveryCodes: string[];

  it('enrols a signed-in user: a wrong code is refused, the right one verifies, the preference turns it on', async () => {
    await running.pool.admin.adminCreateUser({
      email: 'eve@example.com',
      password: PASSWORD,
      groups: ['User'],
    });
    const user = userOf('eve@example.com');
    expect(await signIn(user)).toMatchObject({ kind: 'signed-in' });
    secret = await associate(user);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = codeFor(secret) === '000000' ? '111111' : '000000';
    expect(await failure(verify(user, wrong))).toBe('EnableSoftwareTokenMFAException');
    // The previous step's code: phones' clocks drift, so one step either side is accepted.
    const verified = await verify<{ Status: string; RecoveryCodes: string[] }>(user, codeFor(secret, -1));
    expect(verified.Status).toBe('SUCCESS');
    recoveryCodes = verified.RecoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await setPreference(user, true)).toBe('SUCCESS');
  });

  it.each(['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'] as const)(
    'signs in with %s plus the code',
    async (flow) => {
      const user = userOf('eve@example.com', flow);
      expect(await signIn(user)).toEqual({ kind: 'totp' });
      // Each code works once: each sign-in here uses a later step than the one before.
      const session = await sendCode(user, codeFor(secret, flow === 'USER_SRP_AUTH' ? 0 : 1));
      expect(session.getIdToken().payload.email).toBe('eve@example.com');
    },
  );

  it('refuses a wrong code, a code already used, and ends the sign-in after too many wrong codes', async () => {
    const user = userOf('eve@example.com');
    await signIn(user);
    expect(await failure(sendCode(user, codeFor(secret, -1)))).toBe('CodeMismatchException');
    for (let i = 1; i < 5; i++) expect(await failure(sendCode(user, '123456'))).toBe('CodeMismatchException');
    expect(await failure(sendCode(user, codeFor(secret)))).toBe('NotAuthorizedException');
  });

  it('accepts each recovery code once in place of a code', async () => {
    const [first, second] = recoveryCodes;
    const user = userOf('eve@example.com');
    await signIn(user);
    expect((await sendCode(user, first!)).isValid()).toBe(true);
    const again = userOf('eve@example.com');
    await signIn(again);
    expect(await failure(sendCode(again, first!))).toBe('CodeMismatchException');
    expect((await sendCode(again, second!.toUpperCase())).isValid()).toBe(true);
  });

  it('turns codes off again for a user whose role does not require them', async () => {
    const user = userOf('eve@example.com');
    await signIn(user);
    await sendCode(user, recoveryCodes[2]!);
    expect(await setPreference(user, false)).toBe('SUCCESS');
    expect(await signIn(userOf('eve@example.com'))).toMatchObject({ kind: 'signed-in' });
  });
});

describe('a role that requires a second factor (MFA_SETUP)', () => {
  it('sends an admin without one to enrol during sign-in, then asks for codes; they cannot turn it off', async () => {
    await running.pool.admin.adminCreateUser({
      email: 'ada@example.com',
      password: PASSWORD,
      groups: ['Admin'],
    });
    const user = userOf('ada@example.com');
    expect(await signIn(user)).toEqual({ kind: 'setup' });
    const secret = await associate(user);
    const session = await verify<CognitoUserSession>(user, codeFor(secret));
    expect(session.getIdToken().payload['cognito:groups']).toEqual(['Admin']);
    expect(await failure(setPreference(user, false))).toBe('InvalidParameterException');

    const next = userOf('ada@example.com', 'USER_PASSWORD_AUTH');
    expect(await signIn(next)).toEqual({ kind: 'totp' });
    expect((await sendCode(next, codeFor(secret, 1))).isValid()).toBe(true);
  });

  it('holds a user required by e-mail, in no group, to the same rule', async () => {
    await running.pool.admin.adminCreateUser({ email: 'root@example.com', password: PASSWORD });
    const user = userOf('root@example.com');
    expect(await signIn(user)).toEqual({ kind: 'setup' });
    const secret = await associate(user);
    await verify<CognitoUserSession>(user, codeFor(secret));
    expect(await failure(setPreference(user, false))).toBe('InvalidParameterException');
  });

  it('refuses MFA_SETUP answered before an authenticator is verified', async () => {
    await running.pool.admin.adminCreateUser({
      email: 'abe@example.com',
      password: PASSWORD,
      groups: ['Admin'],
    });
    const user = userOf('abe@example.com');
    expect(await signIn(user)).toEqual({ kind: 'setup' });
    const answer = running.pool.respondToAuthChallenge({
      ClientId: running.clientId,
      ChallengeName: 'MFA_SETUP',
      Session: (user as unknown as { Session: string }).Session,
      ChallengeResponses: { USERNAME: 'abe@example.com' },
    });
    await expect(answer).rejects.toMatchObject({ type: 'InvalidParameterException' });
  });
});
