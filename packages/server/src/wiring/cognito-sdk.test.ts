import type { CognitoUserPool } from 'amazon-cognito-identity-js';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticate,
  callPool,
  changePassword,
  confirmPassword,
  confirmRegistration,
  failure,
  forgotPassword,
  getUserAttributes,
  globalSignOut,
  latestCode,
  type PoolSettings,
  refreshSession,
  resendConfirmationCode,
  signOutAndRevoke,
  signUp,
  userOf,
  userPool,
} from '../../test/cognito-client.js';
import { TEST_LIMITS } from '../../test/test-app.js';
import { loadConfig } from '../config/config.js';
import { readOutbox } from '../mail/mailer.js';
import { type RunningServer, startServer } from '../server.js';

/**
 * The unmodified amazon-cognito-identity-js against the built-in pool over HTTP, through every
 * operation the product uses, SRP and password flows both, and the abuse cases.
 */
let server: RunningServer;
let settings: PoolSettings;
let endpoint: string;
let pool: CognitoUserPool;
const originalFetch = globalThis.fetch;

beforeAll(async () => {
  // The suite signs up dozens of users and types many wrong passwords from 127.0.0.1: the limits
  // are raised for it (the pool's own tests keep the defaults).
  const config = loadConfig(
    { SCRUB_PORT: '0', ...TEST_LIMITS },
    { database: { kind: 'pglite', dataDir: null } },
  );
  server = await startServer(config, false);
  const res = await fetch(`${server.url}/config`);
  settings = ((await res.json()) as { identity: PoolSettings }).identity;
  endpoint = settings.endpoint!;
  pool = userPool(settings);
});
afterAll(() => server.close());
afterEach(() => {
  globalThis.fetch = originalFetch;
});

const PASSWORD = 'Correct-Horse-9';
let counter = 0;
const newEmail = () => `user${++counter}.${Date.now()}@example.com`;
const db = () => server.database.db;

/** A signed-up, confirmed user, as after the e-mailed code was entered. */
async function confirmedUser(password = PASSWORD) {
  const email = newEmail();
  await signUp(pool, email, password, 'Test Person');
  await confirmRegistration(userOf(pool, email), await latestCode(db(), email));
  return email;
}

describe('GET /config', () => {
  it('tells clients to use the built-in pool at <url>/identity', () => {
    expect(settings).toEqual({
      provider: 'local',
      region: 'us-east-1',
      user_pool_id: 'us-east-1_scrublocal',
      client_id: 'scrublocalclient0000000000',
      endpoint: `${server.url}/identity`,
      hosted_ui: null,
    });
  });
});

describe('sign-up and confirmation', () => {
  it('signs up with the e-mail as username, returns the sub, requires confirmation, and e-mails a 6-digit code', async () => {
    const email = newEmail();
    const result = await signUp(pool, email, PASSWORD, 'Jane Doe');
    expect(result.userConfirmed).toBe(false);
    expect(result.userSub).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.codeDeliveryDetails).toEqual({
      AttributeName: 'email',
      DeliveryMedium: 'EMAIL',
      Destination: expect.stringMatching(/^u\*\*\*@e\*\*\*\.com$/),
    });
    const [mail] = await readOutbox(db(), { to: email, limit: 5 });
    expect(mail?.kind).toBe('confirm_sign_up');
    expect(mail?.subject).toMatch(/^Your Scrub verification code: \d{6}$/);
    expect(mail?.text_body.split('\n')[0]).toBe(mail?.subject);
    expect(mail?.text_body).toContain('Hello Jane Doe,');
    expect(mail?.html_body).toContain(await latestCode(db(), email));
  });

  it('refuses an e-mail that is taken, in any case', async () => {
    const email = await confirmedUser();
    const error = await failure(signUp(pool, email.toUpperCase(), PASSWORD));
    expect(error.code).toBe('UsernameExistsException');
  });

  it('refuses a username that is not an e-mail address, and unknown attributes', async () => {
    expect((await failure(signUp(pool, 'not-an-email', PASSWORD))).code).toBe('InvalidParameterException');
    const res = await callPool(endpoint, 'SignUp', {
      ClientId: settings.client_id,
      Username: newEmail(),
      Password: PASSWORD,
      UserAttributes: [{ Name: 'custom:role', Value: 'Admin' }],
    });
    expect(res.body.__type).toBe('InvalidParameterException');
  });

  it('enforces the password policy: 8 characters, not a common password, no character-class rules', async () => {
    const short = await failure(signUp(pool, newEmail(), 'short'));
    expect(short.code).toBe('InvalidPasswordException');
    expect(short.message).toContain('Password not long enough: use at least 8 characters');
    const common = await failure(signUp(pool, newEmail(), 'Password1'));
    expect(common.code).toBe('InvalidPasswordException');
    expect(common.message).toContain('Password is too common');
    // Lower case only, or any script: no composition rules (NIST SP 800-63B).
    await signUp(pool, newEmail(), 'lamp orbit velvet');
    await signUp(pool, newEmail(), 'ключ-от-дома');
  });

  it('an unconfirmed user with the right password is told to confirm; with a wrong one, only that it is wrong', async () => {
    const email = newEmail();
    await signUp(pool, email, PASSWORD);
    const right = await failure(authenticate(userOf(pool, email), PASSWORD));
    expect(right.code).toBe('UserNotConfirmedException');
    const wrong = await failure(authenticate(userOf(pool, email), 'Wrong-Password-1'));
    expect(wrong.code).toBe('NotAuthorizedException');
  });

  it('resends a code, which replaces the previous one; a wrong code is refused; a used one cannot confirm again', async () => {
    const email = newEmail();
    await signUp(pool, email, PASSWORD);
    const first = await latestCode(db(), email);
    const resent = await resendConfirmationCode(userOf(pool, email));
    expect(resent.CodeDeliveryDetails.DeliveryMedium).toBe('EMAIL');
    const second = await latestCode(db(), email);
    expect(second).toMatch(/^\d{6}$/);
    if (first !== second) {
      expect((await failure(confirmRegistration(userOf(pool, email), first))).code).toBe(
        'CodeMismatchException',
      );
    }
    const wrong = second === '000000' ? '000001' : '000000';
    const mismatch = await failure(confirmRegistration(userOf(pool, email), wrong));
    expect(mismatch.code).toBe('CodeMismatchException');
    expect(mismatch.message).toContain('Invalid verification code');
    await confirmRegistration(userOf(pool, email), second);
    const again = await failure(confirmRegistration(userOf(pool, email), second));
    expect(again.code).toBe('NotAuthorizedException');
    expect(again.message).toContain('CONFIRMED');
    // A confirmed user's resend is answered as anyone's, and sends nothing: it tells nobody the state.
    const mails = await db().selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute();
    const confirmed = await resendConfirmationCode(userOf(pool, email));
    expect(confirmed.CodeDeliveryDetails.DeliveryMedium).toBe('EMAIL');
    expect(
      await db().selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute(),
    ).toHaveLength(mails.length);
  });

  it('an expired code is refused with ExpiredCodeException, and a new one works', async () => {
    const email = newEmail();
    await signUp(pool, email, PASSWORD);
    const code = await latestCode(db(), email);
    await sql`update identity_codes set expires_at = now() - interval '1 second'`.execute(db());
    const expired = await failure(confirmRegistration(userOf(pool, email), code));
    expect(expired.code).toBe('ExpiredCodeException');
    await resendConfirmationCode(userOf(pool, email));
    await confirmRegistration(userOf(pool, email), await latestCode(db(), email));
  });

  it('five wrong codes kill the code: even the right one is then refused until a new code is sent', async () => {
    const email = newEmail();
    await signUp(pool, email, PASSWORD);
    const code = await latestCode(db(), email);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      expect((await failure(confirmRegistration(userOf(pool, email), wrong))).code).toBe(
        'CodeMismatchException',
      );
    }
    const limited = await failure(confirmRegistration(userOf(pool, email), code));
    expect(limited.code).toBe('LimitExceededException');
    await resendConfirmationCode(userOf(pool, email));
    await confirmRegistration(userOf(pool, email), await latestCode(db(), email));
  });

  it('limits how many codes one user can have e-mailed, and says so', async () => {
    const email = newEmail();
    await signUp(pool, email, PASSWORD);
    for (let i = 0; i < 4; i++) await resendConfirmationCode(userOf(pool, email));
    const error = await failure(resendConfirmationCode(userOf(pool, email)));
    expect(error.code).toBe('LimitExceededException');
    expect(error.message).toMatch(/limit exceeded/i);
  });
});

describe('sign-in', () => {
  it('SRP (the default flow) returns Cognito-shaped RS256 tokens that verify against the JWKS at the issuer', async () => {
    const email = await confirmedUser();
    const user = userOf(pool, email);
    const session = await authenticate(user, PASSWORD);
    expect(session.isValid()).toBe(true);
    const idToken = session.getIdToken().getJwtToken();
    const id = decodeJwt(idToken);
    expect(decodeProtectedHeader(idToken)).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(id).toMatchObject({
      email,
      email_verified: true,
      name: 'Test Person',
      token_use: 'id',
      aud: settings.client_id,
      iss: `${server.url}/us-east-1_scrublocal`,
      'cognito:username': id.sub,
    });
    expect(id.exp! - id.iat!).toBe(3600);
    const access = decodeJwt(session.getAccessToken().getJwtToken());
    expect(access).toMatchObject({
      sub: id.sub,
      token_use: 'access',
      client_id: settings.client_id,
      scope: 'aws.cognito.signin.user.admin',
      username: id.sub,
      origin_jti: id.origin_jti,
    });
    expect(access.jti).toEqual(expect.any(String));
    // The username the client keeps after SRP is the user's immutable id, as with Cognito.
    expect(user.getUsername()).toBe(id.sub);
    const jwks = createRemoteJWKSet(new URL(`${id.iss}/.well-known/jwks.json`));
    await expect(
      jwtVerify(idToken, jwks, { issuer: id.iss!, audience: settings.client_id }),
    ).resolves.toBeTruthy();
  });

  it('USER_PASSWORD_AUTH works too, with the e-mail in any case', async () => {
    const email = await confirmedUser();
    const session = await authenticate(userOf(pool, email.toUpperCase()), PASSWORD, 'USER_PASSWORD_AUTH');
    expect(decodeJwt(session.getIdToken().getJwtToken()).email).toBe(email);
  });

  it('a wrong password is refused in both flows with the same words as an unknown user', async () => {
    const email = await confirmedUser();
    for (const flow of ['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'] as const) {
      const wrong = await failure(authenticate(userOf(pool, email), 'Wrong-Password-1', flow));
      const unknown = await failure(authenticate(userOf(pool, newEmail()), 'Wrong-Password-1', flow));
      expect(wrong.code).toBe('NotAuthorizedException');
      expect(wrong.message).toBe('Incorrect username or password.');
      expect({ code: unknown.code, message: unknown.message }).toEqual({
        code: wrong.code,
        message: wrong.message,
      });
    }
  });

  it('an unknown user gets an SRP challenge like a real one, the same salt and id each time', async () => {
    const email = newEmail();
    const start = () =>
      callPool(endpoint, 'InitiateAuth', {
        ClientId: settings.client_id,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: email, SRP_A: 'abcdef0123456789' },
      });
    const [a, b] = [await start(), await start()];
    expect(a.status).toBe(200);
    const params = (r: typeof a) => r.body.ChallengeParameters as Record<string, string>;
    expect(params(a).USER_ID_FOR_SRP).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(params(a).USER_ID_FOR_SRP).toBe(params(b).USER_ID_FOR_SRP);
    expect(params(a).SALT).toBe(params(b).SALT);
    expect(params(a).SRP_B).not.toBe(params(b).SRP_B);
  });

  it('five wrong passwords lock sign-in ("Password attempts exceeded"), even with the right password, until the lock ends', async () => {
    const email = await confirmedUser();
    for (let i = 0; i < 5; i++) {
      const flow = i % 2 ? 'USER_PASSWORD_AUTH' : 'USER_SRP_AUTH';
      expect((await failure(authenticate(userOf(pool, email), 'Wrong-Password-1', flow))).message).toBe(
        'Incorrect username or password.',
      );
    }
    for (const flow of ['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'] as const) {
      const locked = await failure(authenticate(userOf(pool, email), PASSWORD, flow));
      expect(locked.code).toBe('NotAuthorizedException');
      expect(locked.message).toBe('Password attempts exceeded');
    }
    await sql`update identity_throttles set locked_until = now() - interval '1 second'`.execute(db());
    await expect(authenticate(userOf(pool, email), PASSWORD)).resolves.toBeTruthy();
  });

  it('unknown names are throttled alike, so the lock says nothing about who exists', async () => {
    const email = newEmail();
    for (let i = 0; i < 5; i++)
      await failure(authenticate(userOf(pool, email), 'Wrong-Password-1', 'USER_PASSWORD_AUTH'));
    expect((await failure(authenticate(userOf(pool, email), 'Wrong-Password-1'))).message).toBe(
      'Password attempts exceeded',
    );
  });
});

describe('SRP messages that were replayed or tampered with', () => {
  /** Lets the real client run, but edits its RespondToAuthChallenge on the way out. */
  function tamper(edit: (responses: Record<string, string>) => void): { sent: () => unknown } {
    let sent: unknown;
    globalThis.fetch = async (input, init) => {
      const target = new Headers(init?.headers).get('x-amz-target') ?? '';
      if (target.endsWith('.RespondToAuthChallenge') && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { ChallengeResponses: Record<string, string> };
        edit(body.ChallengeResponses);
        sent = body;
        return originalFetch(input, { ...init, body: JSON.stringify(body) });
      }
      return originalFetch(input, init);
    };
    return { sent: () => sent };
  }

  const flip = (base64: string) => {
    const bytes = Buffer.from(base64, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    return bytes.toString('base64');
  };

  it('a signature that was altered is refused', async () => {
    const email = await confirmedUser();
    tamper((r) => {
      r.PASSWORD_CLAIM_SIGNATURE = flip(r.PASSWORD_CLAIM_SIGNATURE!);
    });
    const error = await failure(authenticate(userOf(pool, email), PASSWORD));
    expect(error.code).toBe('NotAuthorizedException');
  });

  it('an altered TIMESTAMP breaks the signature', async () => {
    const email = await confirmedUser();
    tamper((r) => {
      r.TIMESTAMP = r.TIMESTAMP!.replace(
        /:(\d{2}) UTC/,
        (_, s) => `:${String((Number(s) + 1) % 60).padStart(2, '0')} UTC`,
      );
    });
    expect((await failure(authenticate(userOf(pool, email), PASSWORD))).code).toBe('NotAuthorizedException');
  });

  it('an altered SECRET_BLOCK is not a session the pool handed out', async () => {
    const email = await confirmedUser();
    tamper((r) => {
      r.PASSWORD_CLAIM_SECRET_BLOCK = flip(r.PASSWORD_CLAIM_SECRET_BLOCK!);
    });
    const error = await failure(authenticate(userOf(pool, email), PASSWORD));
    expect(error.code).toBe('NotAuthorizedException');
    expect(error.message).toBe('Invalid session for the user.');
  });

  it('a valid password claim replayed is refused: each challenge works once', async () => {
    const email = await confirmedUser();
    const spy = tamper(() => {});
    await authenticate(userOf(pool, email), PASSWORD);
    globalThis.fetch = originalFetch;
    const replay = await callPool(endpoint, 'RespondToAuthChallenge', spy.sent());
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Invalid session for the user, session can only be used once.',
    });
  });

  it('a password claim that arrives after the challenge expired is refused', async () => {
    const email = await confirmedUser();
    globalThis.fetch = async (input, init) => {
      if ((new Headers(init?.headers).get('x-amz-target') ?? '').endsWith('.RespondToAuthChallenge')) {
        await sql`update identity_srp_challenges set expires_at = now() - interval '1 second'`.execute(db());
      }
      return originalFetch(input, init);
    };
    const error = await failure(authenticate(userOf(pool, email), PASSWORD));
    expect(error.code).toBe('NotAuthorizedException');
    expect(error.message).toBe('Invalid session for the user, session is expired.');
  });

  it('A = 0 and A = N are refused before any challenge is made', async () => {
    const N =
      'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200CBBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF';
    for (const A of ['0', N, `${N}`.toLowerCase()]) {
      const res = await callPool(endpoint, 'InitiateAuth', {
        ClientId: settings.client_id,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: newEmail(), SRP_A: A },
      });
      expect(res.body.__type).toBe('InvalidParameterException');
    }
  });
});

describe('the signed-in session', () => {
  it('refreshes: new ID and access tokens of the same sign-in', async () => {
    const email = await confirmedUser();
    const user = userOf(pool, email);
    const session = await authenticate(user, PASSWORD);
    const refreshed = await refreshSession(user, session);
    const before = decodeJwt(session.getIdToken().getJwtToken());
    const after = decodeJwt(refreshed.getIdToken().getJwtToken());
    expect(after.jti).not.toBe(before.jti);
    expect(after.origin_jti).toBe(before.origin_jti);
    expect(after.sub).toBe(before.sub);
    expect(refreshed.getRefreshToken().getToken()).toBe(session.getRefreshToken().getToken());
  });

  it('the ID token is accepted by the API as a bearer token', async () => {
    const email = await confirmedUser();
    const session = await authenticate(userOf(pool, email), PASSWORD);
    const res = await fetch(`${server.url}/user`, {
      headers: { authorization: `Bearer ${session.getIdToken().getJwtToken()}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { email: string }).email).toBe(email);
    const access = await fetch(`${server.url}/user`, {
      headers: { authorization: `Bearer ${session.getAccessToken().getJwtToken()}` },
    });
    expect(access.status).toBe(401);
  });

  it('reads the user (GetUser): sub, email, email_verified, name', async () => {
    const email = await confirmedUser();
    const user = userOf(pool, email);
    const session = await authenticate(user, PASSWORD);
    expect(await getUserAttributes(user)).toEqual({
      sub: decodeJwt(session.getIdToken().getJwtToken()).sub,
      email,
      email_verified: 'true',
      name: 'Test Person',
    });
  });

  it('changes the password: the old one must be right, the new one must meet the policy', async () => {
    const email = await confirmedUser();
    const user = userOf(pool, email);
    await authenticate(user, PASSWORD);
    expect((await failure(changePassword(user, 'Wrong-Password-1', 'New-Password-22'))).code).toBe(
      'NotAuthorizedException',
    );
    expect((await failure(changePassword(user, PASSWORD, 'weak'))).code).toBe('InvalidPasswordException');
    expect(await changePassword(user, PASSWORD, 'New-Password-22')).toBe('SUCCESS');
    expect((await failure(authenticate(userOf(pool, email), PASSWORD))).code).toBe('NotAuthorizedException');
    await authenticate(userOf(pool, email), 'New-Password-22');
    await authenticate(userOf(pool, email), 'New-Password-22', 'USER_PASSWORD_AUTH');
  });

  it('forgot password: a code by e-mail, then a new password; the code works once; old sessions end', async () => {
    const email = await confirmedUser();
    const signedIn = userOf(pool, email);
    const oldSession = await authenticate(signedIn, PASSWORD);
    const user = userOf(pool, email);
    const sent = await forgotPassword(user);
    expect(sent.CodeDeliveryDetails).toMatchObject({ DeliveryMedium: 'EMAIL', AttributeName: 'email' });
    const [mail] = await readOutbox(db(), { to: email, limit: 1 });
    expect(mail?.kind).toBe('reset_password');
    const code = await latestCode(db(), email);
    const wrong = code === '111111' ? '222222' : '111111';
    expect((await failure(confirmPassword(user, wrong, 'Reset-Password-3'))).code).toBe(
      'CodeMismatchException',
    );
    expect((await failure(confirmPassword(user, code, 'weak'))).code).toBe('InvalidPasswordException');
    expect(await confirmPassword(user, code, 'Reset-Password-3')).toBe('SUCCESS');
    const reused = await failure(confirmPassword(user, code, 'Another-Password-4'));
    expect(reused.code).toBe('ExpiredCodeException');
    await authenticate(userOf(pool, email), 'Reset-Password-3');
    const refresh = await callPool(endpoint, 'InitiateAuth', {
      ClientId: settings.client_id,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: oldSession.getRefreshToken().getToken() },
    });
    expect(refresh.body.__type).toBe('NotAuthorizedException');
  });

  it('global sign-out ends every session: access tokens and refresh tokens stop working at once', async () => {
    const email = await confirmedUser();
    const first = userOf(pool, email);
    const second = userOf(pool, email);
    const firstSession = await authenticate(first, PASSWORD);
    const secondSession = await authenticate(second, PASSWORD, 'USER_PASSWORD_AUTH');
    expect(await globalSignOut(first)).toBe('SUCCESS');
    for (const session of [firstSession, secondSession]) {
      const getUser = await callPool(endpoint, 'GetUser', {
        AccessToken: session.getAccessToken().getJwtToken(),
      });
      expect(getUser.body).toEqual({
        __type: 'NotAuthorizedException',
        message: 'Access Token has been revoked',
      });
      const started = Date.now();
      const refresh = await callPool(endpoint, 'InitiateAuth', {
        ClientId: settings.client_id,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
      });
      expect(refresh.body).toEqual({
        __type: 'NotAuthorizedException',
        message: 'Refresh Token has been revoked',
      });
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('sign-out with revocation sends RevokeToken (the access token has origin_jti) and kills the refresh token', async () => {
    const email = await confirmedUser();
    const user = userOf(pool, email);
    const session = await authenticate(user, PASSWORD);
    const targets: string[] = [];
    globalThis.fetch = async (input, init) => {
      targets.push(new Headers(init?.headers).get('x-amz-target') ?? '');
      return originalFetch(input, init);
    };
    await signOutAndRevoke(user);
    expect(targets).toEqual(['AWSCognitoIdentityProviderService.RevokeToken']);
    globalThis.fetch = originalFetch;
    const refresh = await callPool(endpoint, 'InitiateAuth', {
      ClientId: settings.client_id,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
    });
    expect(refresh.body.__type).toBe('NotAuthorizedException');
  });

  it('the client, refreshing with a revoked token, ends on NotAuthorizedException (after its own retries)', {
    timeout: 20_000,
  }, async () => {
    const email = await confirmedUser();
    const user = userOf(pool, email);
    const session = await authenticate(user, PASSWORD);
    await callPool(endpoint, 'GlobalSignOut', { AccessToken: session.getAccessToken().getJwtToken() });
    let calls = 0;
    globalThis.fetch = async (input, init) => {
      calls++;
      return originalFetch(input, init);
    };
    const error = await failure(refreshSession(user, session));
    expect(error.code).toBe('NotAuthorizedException');
    // The library retries every failure with backoff; each of those answers came at once.
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  it('an unknown or garbage refresh token is NotAuthorizedException at once, never a 500', async () => {
    for (const token of ['nope', 'x'.repeat(5000)]) {
      const res = await callPool(endpoint, 'InitiateAuth', {
        ClientId: settings.client_id,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: token },
      });
      expect(res.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid Refresh Token' });
    }
  });
});

describe('users who do not exist (no enumeration beyond what Cognito reveals)', () => {
  it('forgot password and resend answer as if a code was sent, and send nothing', async () => {
    const email = newEmail();
    const forgot = await forgotPassword(userOf(pool, email));
    expect(forgot.CodeDeliveryDetails).toEqual({
      AttributeName: 'email',
      DeliveryMedium: 'EMAIL',
      Destination: 'u***@e***.com',
    });
    const resent = await resendConfirmationCode(userOf(pool, email));
    expect(resent.CodeDeliveryDetails.Destination).toBe('u***@e***.com');
    expect(await readOutbox(db(), { to: email, limit: 5 })).toEqual([]);
  });

  it('confirming a code for nobody is a plain code mismatch', async () => {
    const email = newEmail();
    expect((await failure(confirmRegistration(userOf(pool, email), '123456'))).code).toBe(
      'CodeMismatchException',
    );
    expect((await failure(confirmPassword(userOf(pool, email), '123456', 'Good-Password-1'))).code).toBe(
      'CodeMismatchException',
    );
  });
});

describe('the protocol', () => {
  it('answers in Cognito shape, never the API envelope: bad JSON, unknown and unsupported operations, bad fields, wrong client', async () => {
    const raw = await callPool(endpoint, 'SignUp', '{"ClientId":');
    expect(raw.body.__type).toBe('SerializationException');
    expect(raw.body).not.toHaveProperty('error');
    const unknown = await callPool(endpoint, 'SignUp', {}, { 'x-amz-target': 'Nope' });
    expect(unknown.body.__type).toBe('UnknownOperationException');
    const unsupported = await callPool(endpoint, 'AdminCreateUser', {});
    expect(unsupported.body.__type).toBe('UnsupportedOperationException');
    const missing = await callPool(endpoint, 'SignUp', { ClientId: settings.client_id });
    expect(missing.body.__type).toBe('InvalidParameterException');
    expect(missing.body.message).toMatch(
      /Value at 'username' failed to satisfy constraint: Member must not be null/,
    );
    const client = await callPool(endpoint, 'ForgotPassword', {
      ClientId: 'someoneelse',
      Username: newEmail(),
    });
    expect(client.body.__type).toBe('ResourceNotFoundException');
    const flow = await callPool(endpoint, 'InitiateAuth', {
      ClientId: settings.client_id,
      AuthFlow: 'CUSTOM_AUTH',
      AuthParameters: { USERNAME: newEmail() },
    });
    expect(flow.body.__type).toBe('InvalidParameterException');
    for (const res of [raw, unknown, unsupported, missing, client, flow]) expect(res.status).toBe(400);
  });

  it('lets browsers call it across origins (the preflight allows the Cognito headers)', async () => {
    const preflight = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent,cache-control',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.split(/,\s*/)).toEqual([
      'content-type',
      'x-amz-target',
      'x-amz-user-agent',
      'cache-control',
    ]);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    const post = await fetch(endpoint, {
      method: 'POST',
      headers: {
        origin: 'http://app.example',
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.GetUser',
      },
      body: '{"AccessToken":"x"}',
    });
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
    const api = await fetch(`${server.url}/plans`, { headers: { origin: 'http://app.example' } });
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
  });
});
