import { latestCode, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryTokenStorage, type TokenStorage } from '../auth/token-storage.js';
import { Scrub } from '../client.js';
import {
  AuthenticationError,
  ExpiredCodeError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidPasswordError,
  NotSignedInError,
  SessionExpiredError,
  UserNotConfirmedError,
  UsernameExistsError,
} from '../errors.js';

/**
 * The SDK against the real service in this process: its built-in Cognito-protocol pool, its mail
 * outbox for the codes, and its API for the calls made with the session.
 */
let server: RunningServer;

// Starting the service runs its migrations on PGlite: seconds alone, tens on a busy machine.
beforeAll(async () => {
  server = await startLocalServer();
}, 120_000);
afterAll(() => server?.close());
afterEach(() => {
  nock.cleanAll();
  nock.emitter.removeAllListeners('no match');
  vi.useRealTimers();
});

const PASSWORD = 'Correct-Horse-9';
let counter = 0;
const newEmail = () => `sdk${++counter}.${Date.now()}@example.com`;

const client = (tokenStorage: TokenStorage = new MemoryTokenStorage()) =>
  new Scrub({ baseURL: server.url, apiKey: null, tokenStorage, maxRetries: 0 });

/** The real service, but for the answers nock is given; requests it is not given pass through. */
function intercepted(options: nock.Options = {}): nock.Scope {
  return nock(server.url, { allowUnmocked: true, ...options });
}

async function confirmedUser(scrub: Scrub, password = PASSWORD): Promise<string> {
  const email = newEmail();
  await scrub.auth.signUp({ email, password, name: 'Pat Doe' });
  await scrub.auth.confirmSignUp({ email, code: await latestCode(server, email) });
  return email;
}

async function signedIn(tokenStorage: TokenStorage = new MemoryTokenStorage()) {
  const scrub = client(tokenStorage);
  const email = await confirmedUser(scrub);
  await scrub.auth.signIn({ email, password: PASSWORD });
  return { scrub, email, tokenStorage };
}

/** A storage whose entries a test can read and copy. */
function mapStorage(items = new Map<string, string>()): TokenStorage & { items: Map<string, string> } {
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/** Moves this process's clock (the in-process server's too) past the ID token's expiry. */
function hoursLater(hours: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + hours * 3_600_000);
}

async function failure(action: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await action;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the call to fail, and it succeeded');
}

describe('sign-up and confirmation', () => {
  it('signs up, says where the code went, confirms with the mailed code, then signs in', async () => {
    const scrub = client();
    const email = newEmail();

    const result = await scrub.auth.signUp({ email, password: PASSWORD, name: 'Pat Doe' });
    expect(result).toEqual({
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      confirmed: false,
      codeDelivery: { destination: expect.stringMatching(/^s\*\*\*@e\*\*\*\.com$/), medium: 'EMAIL' },
    });
    await scrub.auth.confirmSignUp({ email, code: await latestCode(server, email) });

    const session = await scrub.auth.signIn({ email, password: PASSWORD });
    expect(session).toMatchObject({ userId: result.userId, email, emailVerified: true, name: 'Pat Doe' });
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(scrub.auth.hasSession()).toBe(true);
  });

  it('maps a wrong code and an expired code to the product messages, keeping Cognito code', async () => {
    const scrub = client();
    const email = newEmail();
    await scrub.auth.signUp({ email, password: PASSWORD });
    const code = await latestCode(server, email);

    const wrong = await failure(
      scrub.auth.confirmSignUp({ email, code: code === '000000' ? '000001' : '000000' }),
    );
    expect(wrong).toBeInstanceOf(InvalidCodeError);
    expect(wrong).toMatchObject({
      message: 'Invalid code. Please check and try again.',
      code: 'CodeMismatchException',
    });

    await server.database.db
      .updateTable('identity_codes')
      .set({ expires_at: new Date(0) })
      .execute();
    const expired = await failure(scrub.auth.confirmSignUp({ email, code }));
    expect(expired).toBeInstanceOf(ExpiredCodeError);
    expect(expired).toMatchObject({
      message: 'Code has expired. Please request a new one.',
      code: 'ExpiredCodeException',
    });

    const resent = await scrub.auth.resendCode({ email });
    expect(resent?.medium).toBe('EMAIL');
    await scrub.auth.confirmSignUp({ email, code: await latestCode(server, email) });
  });

  it('refuses a weak password naming the rules, and an e-mail that is taken', async () => {
    const scrub = client();
    const weak = await failure(scrub.auth.signUp({ email: newEmail(), password: 'short' }));
    expect(weak).toBeInstanceOf(InvalidPasswordError);
    expect(weak.code).toBe('InvalidPasswordException');
    expect(weak.message).toContain('Password not long enough');

    const email = await confirmedUser(scrub);
    const taken = await failure(scrub.auth.signUp({ email, password: PASSWORD }));
    expect(taken).toBeInstanceOf(UsernameExistsError);
    expect(taken.code).toBe('UsernameExistsException');
  });
});

describe('sign-in', () => {
  it('tells an unconfirmed user to confirm first', async () => {
    const scrub = client();
    const email = newEmail();
    await scrub.auth.signUp({ email, password: PASSWORD });

    const error = await failure(scrub.auth.signIn({ email, password: PASSWORD }));
    expect(error).toBeInstanceOf(UserNotConfirmedError);
    expect(error).toMatchObject({
      message: 'Please confirm your email first. Check your inbox for the verification code.',
      code: 'UserNotConfirmedException',
    });
    expect(scrub.auth.hasSession()).toBe(false);
  });

  it("refuses a wrong password with the provider's message, and stores nothing", async () => {
    const scrub = client();
    const email = await confirmedUser(scrub);

    const error = await failure(scrub.auth.signIn({ email, password: 'Wrong-Horse-9' }));
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect(error).toMatchObject({
      message: 'Incorrect username or password.',
      code: 'NotAuthorizedException',
    });
    expect(scrub.auth.hasSession()).toBe(false);
    await expect(scrub.auth.session()).resolves.toBeNull();
    await expect(scrub.auth.getIdToken()).rejects.toBeInstanceOf(NotSignedInError);
  });

  it('calls the API with the ID token, never the API key, while signed in', async () => {
    const { tokenStorage, email } = await signedIn();
    const scrub = new Scrub({ baseURL: server.url, apiKey: `scrub_${'x'.repeat(40)}`, tokenStorage });
    // Only a request with the ID token and without the key matches, and goes on to the service.
    const scope = intercepted({ badheaders: ['x-api-key'] })
      .matchHeader('authorization', `Bearer ${await scrub.auth.getIdToken()}`)
      .get('/user')
      .passthrough();

    const user = await scrub.account.get();
    expect(user.email).toBe(email);
    scope.done();
  });

  it('keeps the session in the storage given, for the next client (the next run) to use', async () => {
    const { tokenStorage, email } = await signedIn();

    const later = client(tokenStorage);
    expect(later.auth.hasSession()).toBe(true);
    expect((await later.auth.session())?.email).toBe(email);
    expect((await later.account.get()).email).toBe(email);
  });
});

describe('refreshing the session', () => {
  it('refreshes an expired ID token before a call, and stores the new one', async () => {
    const { scrub, email, tokenStorage } = await signedIn();
    const before = await scrub.auth.getIdToken();

    hoursLater(2);
    const user = await client(tokenStorage).account.get();

    expect(user.email).toBe(email);
    const session = await scrub.auth.session();
    expect(session?.idToken).not.toBe(before);
    expect(session?.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('signs the caller out with SessionExpiredError at once when the refresh is refused', async () => {
    const { scrub, email } = await signedIn();
    // The same user signs out everywhere from another device: this session's refresh token dies too.
    const elsewhere = client();
    await elsewhere.auth.signIn({ email, password: PASSWORD });
    await elsewhere.auth.signOut({ everywhere: true });

    hoursLater(2);
    const started = performance.now();
    const error = await failure(scrub.account.get());

    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toMatchObject({ message: 'Session expired', code: 'session_expired' });
    // amazon-cognito-identity-js's own refresh would retry for about six seconds.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(scrub.auth.hasSession()).toBe(false);
    await expect(scrub.auth.session()).resolves.toBeNull();
  });

  it('on a 401 with a session, refreshes once and retries the call', async () => {
    const { tokenStorage, email } = await signedIn();
    let refreshes = 0;
    nock.emitter.on('no match', (request: Request) => {
      if (request.headers.get('x-amz-target')?.endsWith('.InitiateAuth')) refreshes++;
    });
    const message = 'The ID token has expired. Refresh the session and send the new ID token.';
    intercepted()
      .get('/user')
      .reply(401, { error: { code: 'token_expired', message }, message });

    const user = await client(tokenStorage).account.get();

    expect(user.email).toBe(email);
    expect(refreshes).toBe(1);
  });

  it('when the API refuses a token that still looks valid and the refresh is refused, the session ends', async () => {
    const { tokenStorage, email } = await signedIn();
    const elsewhere = client();
    await elsewhere.auth.signIn({ email, password: PASSWORD });
    await elsewhere.auth.signOut({ everywhere: true });
    const message = 'The ID token has expired. Refresh the session and send the new ID token.';
    intercepted()
      .get('/credits')
      .times(2)
      .reply(401, { error: { code: 'token_expired', message }, message });
    const scrub = client(tokenStorage);

    const error = await failure(scrub.account.credits());

    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(scrub.auth.hasSession()).toBe(false);
  });

  it('forgets the session when the API refuses even the refreshed token', async () => {
    const { tokenStorage } = await signedIn();
    const message = 'The ID token was issued for another app client.';
    intercepted()
      .get('/credits')
      .times(2)
      .reply(401, { error: { code: 'unauthorized', message }, message });
    const scrub = client(tokenStorage);

    const error = await failure(scrub.account.credits());

    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(`401 ${message}`);
    expect(scrub.auth.hasSession()).toBe(false);
  });
});

/** The callback fragment a hosted sign-in would send: the tokens a sign-in stored in `tokenStorage`. */
async function hostedFragment(scrub: Scrub, tokenStorage: TokenStorage): Promise<string> {
  const prefix = `CognitoIdentityServiceProvider.${(await scrub.config()).identity?.client_id}`;
  const user = tokenStorage.getItem(`${prefix}.LastAuthUser`);
  const token = (name: string) => tokenStorage.getItem(`${prefix}.${user}.${name}`) ?? '';
  return `#id_token=${token('idToken')}&access_token=${token('accessToken')}&token_type=Bearer&expires_in=3600`;
}

describe('hosted sign-in', () => {
  it('asks the hosted page for an ID token sent back to the callback, when /config names one', async () => {
    expect(await client().auth.hostedSignInUrl({ redirectUri: 'http://localhost/callback' })).toBeNull();
    const config = await client().config();
    intercepted()
      .get('/config')
      .reply(200, {
        ...config,
        identity: {
          ...config.identity,
          hosted_ui: { domain: 'https://scrub.auth.us-east-1.amazoncognito.com', client_id: 'abc123' },
        },
      });
    const url = new URL(
      (await client().auth.hostedSignInUrl({
        redirectUri: 'https://app.example.com/callback',
        state: 's1',
      })) ?? '',
    );
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://scrub.auth.us-east-1.amazoncognito.com/oauth2/authorize',
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'token',
      client_id: 'abc123',
      redirect_uri: 'https://app.example.com/callback',
      scope: 'email openid profile',
      state: 's1',
    });
  });

  it("adopts the callback's tokens once the API has accepted them", async () => {
    const { scrub, email, tokenStorage } = await signedIn();
    const fragment = await hostedFragment(scrub, tokenStorage);
    const adopted = client();
    const session = await adopted.auth.adoptHostedSignIn(fragment);
    expect(session.email).toBe(email);
    expect(adopted.auth.hasSession()).toBe(true);
    expect((await adopted.account.get()).email).toBe(email);
  });

  it('stores nothing for an error, a missing token, or a token the API refuses', async () => {
    const scrub = client();
    await expect(
      scrub.auth.adoptHostedSignIn('#error=access_denied&error_description=User+cancelled+the+sign-in'),
    ).rejects.toThrow('User cancelled the sign-in');
    await expect(scrub.auth.adoptHostedSignIn('#access_token=x')).rejects.toThrow('No ID token in callback');
    const signed = await signedIn();
    const fragment = await hostedFragment(signed.scrub, signed.tokenStorage);
    // The signature's last characters changed: the claims still read well, the API refuses it.
    const forged = fragment.replace(/(id_token=[^&]+?)[A-Za-z0-9_-]{4}&/, '$1AAAA&');
    expect(forged).not.toBe(fragment);
    await expect(scrub.auth.adoptHostedSignIn(forged)).rejects.toThrow();
    expect(scrub.auth.hasSession()).toBe(false);
  });
});

describe('signing out', () => {
  it('revokes the session and forgets it: a copy of its refresh token no longer works', async () => {
    const storage = mapStorage();
    const { scrub } = await signedIn(storage);
    const copy = mapStorage(new Map(storage.items));

    await scrub.auth.signOut();

    expect(scrub.auth.hasSession()).toBe(false);
    expect([...storage.items.keys()]).toEqual([]);
    // An ID token already handed out stays valid to the API until it expires, as with Cognito.
    hoursLater(2);
    await expect(client(copy).account.get()).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('a new sign-in replaces the stored one, removing and revoking it', async () => {
    const storage = mapStorage();
    const { scrub, email: first } = await signedIn(storage);
    const firstCopy = mapStorage(new Map(storage.items));
    const firstUser = (await scrub.auth.session())?.userId ?? '';
    const second = await confirmedUser(scrub);

    await scrub.auth.signIn({ email: second, password: PASSWORD });

    expect((await scrub.auth.session())?.email).toBe(second);
    expect([...storage.items.keys()].filter((key) => key.includes(firstUser))).toEqual([]);
    hoursLater(2);
    await expect(client(firstCopy).account.get()).rejects.toBeInstanceOf(SessionExpiredError);
    expect(first).not.toBe(second);
  });

  it('does nothing when nobody is signed in', async () => {
    await expect(client().auth.signOut()).resolves.toBeUndefined();
  });
});

describe('passwords', () => {
  it('resets a forgotten password with the mailed code', async () => {
    const scrub = client();
    const email = await confirmedUser(scrub);

    const sent = await scrub.auth.forgotPassword({ email });
    expect(sent?.medium).toBe('EMAIL');
    const code = await latestCode(server, email);
    const wrong = await failure(
      scrub.auth.confirmForgotPassword({
        email,
        code: code === '111111' ? '222222' : '111111',
        newPassword: 'New-Horse-10',
      }),
    );
    expect(wrong).toBeInstanceOf(InvalidCodeError);
    await scrub.auth.confirmForgotPassword({ email, code, newPassword: 'New-Horse-10' });

    await expect(scrub.auth.signIn({ email, password: PASSWORD })).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    await expect(scrub.auth.signIn({ email, password: 'New-Horse-10' })).resolves.toMatchObject({ email });
  });

  it('hides whether an address has an account, as Cognito does by default', async () => {
    await expect(client().auth.forgotPassword({ email: newEmail() })).resolves.toMatchObject({
      medium: 'EMAIL',
    });
  });

  it('changes the password of the signed-in user, who must give the current one', async () => {
    const { scrub, email } = await signedIn();

    const wrong = await failure(
      scrub.auth.changePassword({ oldPassword: 'Wrong-Horse-9', newPassword: 'New-Horse-11' }),
    );
    expect(wrong).toBeInstanceOf(InvalidCredentialsError);
    await scrub.auth.changePassword({ oldPassword: PASSWORD, newPassword: 'New-Horse-11' });

    await expect(client().auth.signIn({ email, password: 'New-Horse-11' })).resolves.toMatchObject({ email });
    await expect(client().auth.changePassword({ oldPassword: 'a', newPassword: 'b' })).rejects.toBeInstanceOf(
      NotSignedInError,
    );
  });
});

describe('account calls', () => {
  it('reads and updates the user, and pauses and resumes the plan', async () => {
    const { scrub, email } = await signedIn();

    expect(await scrub.account.get()).toMatchObject({ email, user_plan_status: 'active' });
    expect(await scrub.account.update({ user_name: 'Pat Smith' })).toMatchObject({ user_name: 'Pat Smith' });
    expect(await scrub.account.setPlanStatus('paused')).toMatch(/paused/);
    expect((await scrub.account.get()).user_plan_status).toBe('paused');
    await scrub.account.setPlanStatus('active');
    expect((await scrub.account.credits()).user_plan.plan_status).toBe('active');
  });

  it('rotates the API key: the new key works alone, the old one stops, a key client adopts the new one', async () => {
    const { scrub } = await signedIn();
    const first = await scrub.apiKey.rotate();
    expect(first).toMatchObject({
      api_key: expect.stringMatching(/^scrub_[A-Za-z0-9]{40}$/),
      last4: first.api_key.slice(-4),
    });

    const byKey = new Scrub({ baseURL: server.url, apiKey: first.api_key, maxRetries: 0 });
    expect((await byKey.account.credits()).credits).toBeGreaterThanOrEqual(0);

    const second = await byKey.apiKey.rotate();
    expect(second.api_key).not.toBe(first.api_key);
    expect((await byKey.account.credits()).credits).toBeGreaterThanOrEqual(0);
    const stale = new Scrub({ baseURL: server.url, apiKey: first.api_key, maxRetries: 0 });
    await expect(stale.account.credits()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
