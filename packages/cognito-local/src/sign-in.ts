import { randomBytes, randomUUID } from 'node:crypto';
import { CognitoError, cognitoMessages as m } from './errors.js';
import type { PoolKeys } from './keys.js';
import type { MfaChallenge, MfaChallenges } from './mfa-challenges.js';
import { verifyPassword } from './passwords.js';
import { notAuthorized, type PoolContext, required, sha256 } from './pool-context.js';
import type { SoftwareTokens } from './software-tokens.js';
import { N, parseHex, parseSrpTimestamp, serverEphemeral, verifyPasswordClaim } from './srp.js';
import type { PoolClient, Throttles } from './throttles.js';
import {
  type SignedTokens,
  signTokens,
  TokenRejected,
  type TokenUse,
  type VerificationMaterial,
  type VerifiedToken,
  verifyIdentityToken,
} from './tokens.js';
import { emailKey, type UserRow, type UserStore } from './user-store.js';

export interface AuthenticationResult extends SignedTokens {
  RefreshToken?: string;
}

export type SignedIn = {
  ChallengeParameters: Record<string, never>;
  AuthenticationResult: AuthenticationResult;
};

export type InitiateAuthResult =
  | SignedIn
  | MfaChallenge
  | {
      ChallengeName: 'PASSWORD_VERIFIER';
      Session: string;
      ChallengeParameters: {
        SALT: string;
        SRP_B: string;
        SECRET_BLOCK: string;
        USER_ID_FOR_SRP: string;
        USERNAME: string;
      };
    };

/** What the host may base a second-factor requirement on: the user's groups and e-mail. */
export interface MfaSubject {
  groups: string[];
  email: string;
  emailVerified: boolean;
}

/** Whether a user must sign in with an authenticator code (enrol at sign-in, cannot turn it off). */
export type MfaRequirement = (user: MfaSubject) => boolean;

export interface SignInOptions {
  keys: PoolKeys;
  /** Read at each use: the issuer carries the listening port, known only once listening. */
  verification: () => VerificationMaterial;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Whether this user must use a second factor (enrolment at sign-in if they have none). */
  requireMfa: MfaRequirement;
  tokens: SoftwareTokens;
  mfa: MfaChallenges;
}

/**
 * Sign-in by password or SRP, sessions (one per sign-in, renewed by its refresh token until
 * revoked), and the tokens they issue. A wrong password counts against the user name's throttle.
 */
export class SignIn {
  readonly #pool: PoolContext;
  readonly #users: UserStore;
  readonly #throttles: Throttles;
  readonly #options: SignInOptions;

  constructor(pool: PoolContext, users: UserStore, throttles: Throttles, options: SignInOptions) {
    this.#pool = pool;
    this.#users = users;
    this.#throttles = throttles;
    this.#options = options;
  }

  /** Verifies a token and that its sign-in is still alive and its user enabled. Throws TokenRejected. */
  async verifyToken(token: string, use: TokenUse): Promise<VerifiedToken> {
    const verified = await verifyIdentityToken(token, this.#options.verification(), use, this.#pool.now());
    const label = use === 'id' ? 'ID' : 'Access';
    const session = verified.originJti
      ? await this.#pool.db
          .selectFrom('identity_sessions')
          .innerJoin('identity_users', 'identity_users.sub', 'identity_sessions.user_sub')
          .select(['identity_sessions.revoked_at', 'identity_users.enabled', 'identity_users.sub'])
          .where('identity_sessions.origin_jti', '=', verified.originJti)
          .executeTakeFirst()
      : undefined;
    if (!session || session.revoked_at || session.sub !== verified.sub) {
      throw new TokenRejected('invalid', `${label} Token has been revoked`);
    }
    if (!session.enabled) throw new TokenRejected('invalid', m.disabled);
    return verified;
  }

  /** The user behind a valid, unrevoked access token; Cognito's NotAuthorizedException otherwise. */
  async authenticate(accessToken: string): Promise<UserRow> {
    let verified: VerifiedToken;
    try {
      verified = await this.verifyToken(accessToken, 'access');
    } catch (error) {
      if (error instanceof TokenRejected) throw notAuthorized(error.message);
      throw error;
    }
    const user = await this.#users.find(verified.sub);
    if (!user) throw new CognitoError('UserNotFoundException', m.userNotFound);
    return user;
  }

  async password(
    clientId: string,
    username: string,
    password: string,
    client?: PoolClient,
  ): Promise<SignedIn | MfaChallenge> {
    const user = await this.#users.find(username);
    const key = this.#throttles.signInKeys(user, username, client);
    await this.#throttles.assertNotLocked(key);
    // An unknown user costs one scrypt too, so the answer's timing says nothing.
    const ok = await verifyPassword(password, user?.password_hash ?? null);
    if (!ok || !user) {
      await this.#throttles.noteFailedPassword(key);
      throw notAuthorized(m.badCredentials);
    }
    await this.#throttles.clearSignIn(key);
    return this.#afterPassword(user, clientId);
  }

  /** USER_SRP_AUTH's first step: the PASSWORD_VERIFIER challenge, kept until answered once or expired. */
  async startSrp(
    clientId: string,
    username: string,
    srpA: string,
    client?: PoolClient,
  ): Promise<InitiateAuthResult> {
    const A = parseHex(srpA);
    if (A === null || A % N === 0n)
      throw new CognitoError('InvalidParameterException', 'SRP_A is not a valid SRP value.');
    const user = await this.#users.find(username);
    const throttleKey = this.#throttles.signInKeys(user, username, client);
    await this.#throttles.assertNotLocked(throttleKey);
    // An unknown name gets a challenge that looks like a real one, stable per name (as Cognito's).
    const srpUserId = user ? user.sub : this.#derivedUuid(`srp-id:${emailKey(username)}`);
    const salt = user
      ? user.srp_salt
      : this.#pool
          .derive(`srp-salt:${emailKey(username)}`)
          .subarray(0, 16)
          .toString('hex');
    const verifier = user ? user.srp_verifier : randomBytes(384).toString('hex');
    const { b, B } = serverEphemeral(verifier);
    const secretBlock = randomBytes(64).toString('base64');
    const session = randomBytes(48).toString('base64url');
    const now = this.#pool.now();
    await this.#pool.db.deleteFrom('identity_srp_challenges').where('expires_at', '<', now).execute();
    await this.#pool.db
      .insertInto('identity_srp_challenges')
      .values({
        id: sha256(secretBlock),
        session_hash: sha256(session),
        user_sub: user?.sub ?? null,
        srp_user_id: srpUserId,
        throttle_key: throttleKey,
        client_id: clientId,
        big_a: A.toString(16),
        big_b: B.toString(16),
        small_b: b.toString(16),
        expires_at: new Date(now.getTime() + this.#pool.tuning.srpChallengeTtlSeconds * 1000),
      })
      .execute();
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      Session: session,
      ChallengeParameters: {
        SALT: salt,
        SRP_B: B.toString(16),
        SECRET_BLOCK: secretBlock,
        USER_ID_FOR_SRP: srpUserId,
        USERNAME: srpUserId,
      },
    };
  }

  /** USER_SRP_AUTH's second step: the client's proof that it knows the password. */
  async answerPasswordVerifier(
    clientId: string,
    session: string | undefined,
    responses: Record<string, string>,
  ): Promise<SignedIn | MfaChallenge> {
    const username = required(responses, 'USERNAME');
    const secretBlock = required(responses, 'PASSWORD_CLAIM_SECRET_BLOCK');
    const signature = required(responses, 'PASSWORD_CLAIM_SIGNATURE');
    const timestamp = required(responses, 'TIMESTAMP');
    const now = this.#pool.now();
    const id = sha256(secretBlock);
    const known = await this.#pool.db
      .selectFrom('identity_srp_challenges')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!known) throw notAuthorized('Invalid session for the user.');
    // Claiming the challenge and using it are one step: a replayed SECRET_BLOCK finds it used.
    const challenge = await this.#pool.db
      .updateTable('identity_srp_challenges')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!challenge) throw notAuthorized('Invalid session for the user, session can only be used once.');
    if (challenge.session_hash !== sha256(session ?? '') || challenge.client_id !== clientId) {
      throw notAuthorized('Invalid session for the user.');
    }
    if (challenge.expires_at <= now) throw notAuthorized('Invalid session for the user, session is expired.');
    this.#checkTimestamp(timestamp, now);
    await this.#throttles.assertNotLocked(challenge.throttle_key);
    const user = challenge.user_sub ? await this.#users.find(challenge.user_sub) : undefined;
    const signed =
      user !== undefined &&
      (username === challenge.srp_user_id || emailKey(username) === user.email_key) &&
      verifyPasswordClaim({
        poolName: this.#pool.poolName,
        userId: challenge.srp_user_id,
        A: BigInt(`0x${challenge.big_a}`),
        B: BigInt(`0x${challenge.big_b}`),
        b: BigInt(`0x${challenge.small_b}`),
        verifier: user.srp_verifier,
        secretBlock,
        timestamp,
        signature,
      });
    if (!signed || !user) {
      await this.#throttles.noteFailedPassword(challenge.throttle_key);
      throw notAuthorized(m.badCredentials);
    }
    await this.#throttles.clearSignIn(challenge.throttle_key);
    return this.#afterPassword(user, clientId);
  }

  /** SOFTWARE_TOKEN_MFA: the authenticator's code (or a recovery code) completes the sign-in. */
  async answerSoftwareTokenMfa(
    clientId: string,
    session: string | undefined,
    responses: Record<string, string>,
  ): Promise<SignedIn> {
    const user = await this.#challengedUser(clientId, session, 'SOFTWARE_TOKEN_MFA', responses);
    const code = required(responses, 'SOFTWARE_TOKEN_MFA_CODE');
    if (!(await this.#options.tokens.acceptSignInCode(user.sub, code))) {
      return this.#options.mfa.wrongCode(session);
    }
    return this.#finishChallenge(user, clientId, session);
  }

  /** MFA_SETUP: answered once VerifySoftwareToken (with this session) enrolled an authenticator. */
  async answerMfaSetup(
    clientId: string,
    session: string | undefined,
    responses: Record<string, string>,
  ): Promise<SignedIn> {
    const user = await this.#challengedUser(clientId, session, 'MFA_SETUP', responses);
    if (!(await this.#options.tokens.state(user.sub)).enabled) {
      throw new CognitoError(
        'InvalidParameterException',
        'Enrol an authenticator first: AssociateSoftwareToken, then VerifySoftwareToken with this session.',
      );
    }
    return this.#finishChallenge(user, clientId, session);
  }

  async #challengedUser(
    clientId: string,
    session: string | undefined,
    kind: 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP',
    responses: Record<string, string>,
  ): Promise<UserRow> {
    const username = required(responses, 'USERNAME');
    const sub = await this.#options.mfa.userOf(session, kind, clientId);
    const user = await this.#users.find(sub);
    if (!user || (emailKey(username) !== user.email_key && username.toLowerCase() !== user.sub)) {
      throw notAuthorized('Invalid session for the user.');
    }
    return user;
  }

  async #finishChallenge(user: UserRow, clientId: string, session: string | undefined): Promise<SignedIn> {
    if (!(await this.#options.mfa.finish(session))) {
      throw notAuthorized('Invalid session for the user, session can only be used once.');
    }
    return { ChallengeParameters: {}, AuthenticationResult: await this.#startSession(user, clientId) };
  }

  /** The password checked out: a code is due if the user enrolled, enrolment if their role needs one. */
  async #afterPassword(user: UserRow, clientId: string): Promise<SignedIn | MfaChallenge> {
    this.#assertUsable(user);
    if ((await this.#options.tokens.state(user.sub)).enabled) {
      return this.#options.mfa.start(user.sub, clientId, 'SOFTWARE_TOKEN_MFA');
    }
    if (await this.mustUseMfa(user)) return this.#options.mfa.start(user.sub, clientId, 'MFA_SETUP');
    return { ChallengeParameters: {}, AuthenticationResult: await this.#startSession(user, clientId) };
  }

  /** Whether the host requires this user to use a second factor (by groups, or by e-mail). */
  async mustUseMfa(user: UserRow): Promise<boolean> {
    const groups = (await this.#users.groupsOf([user.sub])).get(user.sub) ?? [];
    return this.#options.requireMfa({ groups, email: user.email, emailVerified: user.email_verified });
  }

  #assertUsable(user: UserRow): void {
    if (!user.enabled) throw notAuthorized(m.disabled);
    if (user.status !== 'CONFIRMED') throw new CognitoError('UserNotConfirmedException', m.notConfirmed);
  }

  /** A dead refresh token is refused at once: the client retries every failure for seconds. */
  async refresh(clientId: string, refreshToken: string): Promise<SignedIn> {
    const session = await this.#pool.db
      .selectFrom('identity_sessions')
      .selectAll()
      .where('refresh_token_hash', '=', sha256(refreshToken))
      .executeTakeFirst();
    if (!session || session.client_id !== clientId) throw notAuthorized('Invalid Refresh Token');
    if (session.revoked_at) throw notAuthorized('Refresh Token has been revoked');
    if (session.expires_at <= this.#pool.now()) throw notAuthorized('Refresh Token has expired');
    const user = await this.#users.find(session.user_sub);
    if (!user) throw notAuthorized('Invalid Refresh Token');
    if (!user.enabled) throw notAuthorized(m.disabled);
    const tokens = await this.#tokensFor(user, {
      originJti: session.origin_jti,
      authTime: session.auth_time,
      clientId,
    });
    return { ChallengeParameters: {}, AuthenticationResult: tokens };
  }

  /** Revokes a refresh token and every token of its sign-in. Unknown tokens are answered alike (RFC 7009). */
  async revoke(clientId: string, token: string): Promise<void> {
    const session = await this.#pool.db
      .selectFrom('identity_sessions')
      .select(['origin_jti', 'client_id'])
      .where('refresh_token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (session && session.client_id !== clientId) {
      throw new CognitoError('UnauthorizedException', 'The token was not issued to this app client.');
    }
    if (session) {
      await this.#pool.db
        .updateTable('identity_sessions')
        .set({ revoked_at: this.#pool.now() })
        .where('origin_jti', '=', session.origin_jti)
        .where('revoked_at', 'is', null)
        .execute();
    }
  }

  #checkTimestamp(timestamp: string, now: Date): void {
    const claimedAt = parseSrpTimestamp(timestamp);
    if (!claimedAt) {
      throw new CognitoError(
        'InvalidParameterException',
        'TIMESTAMP must look like "Sun Nov 22 01:34:39 UTC 2026" (UTC, day not zero-padded).',
      );
    }
    const skew = this.#pool.tuning.srpClockSkewSeconds;
    if (Math.abs(claimedAt.getTime() - now.getTime()) > skew * 1000) {
      throw new CognitoError(
        'InvalidParameterException',
        `TIMESTAMP is more than ${skew} seconds from the server's clock: check this device's clock.`,
      );
    }
  }

  /** After every step checked out: the account must still be usable, then a new session starts. */
  async #startSession(user: UserRow, clientId: string): Promise<AuthenticationResult> {
    this.#assertUsable(user);
    const now = this.#pool.now();
    const refreshToken = randomBytes(48).toString('base64url');
    const originJti = randomUUID();
    await this.#pool.db
      .insertInto('identity_sessions')
      .values({
        origin_jti: originJti,
        user_sub: user.sub,
        client_id: clientId,
        refresh_token_hash: sha256(refreshToken),
        auth_time: now,
        expires_at: new Date(now.getTime() + this.#options.refreshTokenTtlSeconds * 1000),
      })
      .execute();
    const tokens = await this.#tokensFor(user, { originJti, authTime: now, clientId });
    return { ...tokens, RefreshToken: refreshToken };
  }

  async #tokensFor(
    user: UserRow,
    session: { originJti: string; authTime: Date; clientId: string },
  ): Promise<SignedTokens> {
    const groups = (await this.#users.groupsOf([user.sub])).get(user.sub) ?? [];
    return signTokens(
      this.#options.keys,
      this.#options.verification().issuer,
      {
        sub: user.sub,
        email: user.email,
        emailVerified: user.email_verified,
        attributes: user.attributes,
        groups,
      },
      session,
      this.#pool.now(),
      this.#options.tokenTtlSeconds,
    );
  }

  #derivedUuid(label: string): string {
    const hex = this.#pool.derive(label).subarray(0, 16).toString('hex');
    const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
