import {
  AuthenticationDetails,
  type ChallengeName,
  type CodeDeliveryDetails,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
  type ISignUpResult,
} from 'amazon-cognito-identity-js';
import type { Kysely } from 'kysely';
import { readOutbox } from '../src/mail/mailer.js';
import type { Database } from '../src/storage/schema.js';

/**
 * Promise wrappers around the real amazon-cognito-identity-js, exactly as a browser app calls it:
 * only `endpoint` points it at the built-in pool. Each helper user gets its own storage, so tests
 * do not share cached sessions.
 */
export function memoryStorage(): ICognitoStorage & { keys(): string[] } {
  const items = new Map<string, string>();
  return {
    setItem: (key, value) => void items.set(key, String(value)),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    keys: () => [...items.keys()],
  };
}

export interface PoolSettings {
  user_pool_id: string;
  client_id: string;
  endpoint: string | null;
}

export function userPool(settings: PoolSettings, storage = memoryStorage()): CognitoUserPool {
  return new CognitoUserPool({
    UserPoolId: settings.user_pool_id,
    ClientId: settings.client_id,
    endpoint: settings.endpoint ?? undefined,
    Storage: storage,
  });
}

export function userOf(pool: CognitoUserPool, username: string): CognitoUser {
  return new CognitoUser({ Username: username, Pool: pool, Storage: memoryStorage() });
}

/** An error from the client: Cognito's exception name is in `code` and `name`. */
export interface CognitoClientError extends Error {
  code: string;
}

const settle =
  <T>(resolve: (value: T) => void, reject: (error: unknown) => void) =>
  (error: unknown, value?: T) =>
    error ? reject(error) : resolve(value as T);

export function signUp(pool: CognitoUserPool, email: string, password: string, name?: string) {
  const attributes = [new CognitoUserAttribute({ Name: 'email', Value: email })];
  if (name) attributes.push(new CognitoUserAttribute({ Name: 'name', Value: name }));
  return new Promise<ISignUpResult>((resolve, reject) =>
    pool.signUp(email, password, attributes, [], settle(resolve, reject)),
  );
}

export const confirmRegistration = (user: CognitoUser, code: string) =>
  new Promise<unknown>((resolve, reject) => user.confirmRegistration(code, true, settle(resolve, reject)));

export const resendConfirmationCode = (user: CognitoUser) =>
  new Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }>((resolve, reject) =>
    user.resendConfirmationCode(settle(resolve, reject)),
  );

export function authenticate(
  user: CognitoUser,
  password: string,
  flow: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' = 'USER_SRP_AUTH',
): Promise<CognitoUserSession> {
  user.setAuthenticationFlowType(flow);
  return new Promise((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: user.getUsername(), Password: password }), {
      onSuccess: resolve,
      onFailure: reject,
      newPasswordRequired: () => reject(new Error('New password required')),
      mfaRequired: (challenge: ChallengeName) => reject(new Error(`unexpected ${challenge}`)),
    }),
  );
}

export const refreshSession = (user: CognitoUser, session: CognitoUserSession) =>
  new Promise<CognitoUserSession>((resolve, reject) =>
    user.refreshSession(session.getRefreshToken(), settle(resolve, reject)),
  );

export const forgotPassword = (user: CognitoUser) =>
  new Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }>((resolve, reject) =>
    user.forgotPassword({ onSuccess: resolve, onFailure: reject }),
  );

export const confirmPassword = (user: CognitoUser, code: string, password: string) =>
  new Promise<string>((resolve, reject) =>
    user.confirmPassword(code, password, { onSuccess: resolve, onFailure: reject }),
  );

export const changePassword = (user: CognitoUser, previous: string, proposed: string) =>
  new Promise<'SUCCESS'>((resolve, reject) =>
    user.changePassword(previous, proposed, settle(resolve, reject)),
  );

export const getUserAttributes = async (user: CognitoUser) => {
  const attributes = await new Promise<CognitoUserAttribute[]>((resolve, reject) =>
    user.getUserAttributes(settle(resolve, reject)),
  );
  return Object.fromEntries(attributes.map((a) => [a.getName(), a.getValue()]));
};

export const globalSignOut = (user: CognitoUser) =>
  new Promise<string>((resolve, reject) => user.globalSignOut({ onSuccess: resolve, onFailure: reject }));

export const signOutAndRevoke = (user: CognitoUser) =>
  new Promise<void>((resolve, reject) =>
    user.signOut((error?: Error) => (error ? reject(error) : resolve())),
  );

/** Runs `action` and returns the client error it fails with (the test fails if it succeeds). */
export async function failure(action: Promise<unknown>): Promise<CognitoClientError> {
  try {
    await action;
  } catch (error) {
    return error as CognitoClientError;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

/** The newest 6-digit code e-mailed to this address, read from the outbox as a script would. */
export async function latestCode(db: Kysely<Database>, email: string): Promise<string> {
  const [mail] = await readOutbox(db, { to: email, limit: 1 });
  const code = /code: (\d{6})\b/.exec(mail?.subject ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** A raw protocol call, for what the client library never sends (replays, tampering, bad input). */
export async function callPool(
  endpoint: string,
  operation: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { __type?: string; message?: string } & Record<string, unknown> }> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { __type?: string; message?: string } };
}
