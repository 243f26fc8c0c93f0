/**
 * The built-in user pool: the identity provider of the embedded setup. It keeps users, groups,
 * codes and sessions in the service's database and answers the Amazon Cognito user pool API
 * (the protocol itself is in `protocol.ts`), so `amazon-cognito-identity-js` works against it
 * unchanged. With an Amazon Cognito pool configured it is not created at all.
 *
 * For the rest of the server:
 * - `IdentityPool.verification()`: issuer, app client id and public JWKS, to verify this pool's
 *   tokens with jose (`createLocalJWKSet(jwks)`); `verifyIdentityToken` (from `tokens.ts`, also
 *   exported here) does it the same way for the pool itself.
 * - `IdentityPool.verifyToken()`: the same plus what only the pool knows: the sign-in was not
 *   revoked (sign-out) and the user still exists and is enabled.
 * - Admin operations: `adminCreateUser`, `adminGetUser`, `listUsers`, `adminUpdateUserAttributes`,
 *   `adminSetUserPassword`, `adminDisableUser`, `adminEnableUser`, `adminDeleteUser`,
 *   `adminUserGlobalSignOut`, `listGroups`, `createGroup`, `adminAddUserToGroup`,
 *   `adminRemoveUserFromGroup`, `adminListGroupsForUser`. They are a TypeScript API only: the
 *   HTTP endpoint answers none of Cognito's Admin* operations, which need AWS credentials.
 */
import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import type { Database, IdentityUsersTable } from '../storage/schema.js';
import { type CodePurpose, codeMail } from './code-mail.js';
import { CognitoError, cognitoMessages as m } from './errors.js';
import { loadOrCreateKeys, type PoolKeys } from './keys.js';
import {
  defaultPasswordPolicy,
  enforcePasswordPolicy,
  hashPassword,
  type PasswordPolicy,
  verifyPassword,
} from './passwords.js';
import {
  createVerifier,
  N,
  parseHex,
  parseSrpTimestamp,
  serverEphemeral,
  verifyPasswordClaim,
} from './srp.js';
import {
  type SignedTokens,
  signTokens,
  TokenRejected,
  type TokenUse,
  type VerificationMaterial,
  type VerifiedToken,
  verifyIdentityToken,
} from './tokens.js';

export { TokenRejected, type VerificationMaterial, type VerifiedToken, verifyIdentityToken };

/** Limits and lifetimes; every one has a default, tests shorten them. */
export interface PoolTuning {
  passwordPolicy: PasswordPolicy;
  signUpCodeTtlSeconds: number;
  resetCodeTtlSeconds: number;
  /** Wrong entries of one code before it stops working and a new one must be requested. */
  maxCodeAttempts: number;
  /** Codes e-mailed to one user (sign-up, resends, resets) per window. */
  codeSends: { max: number; windowSeconds: number };
  /** Failed passwords for one user name within the window before sign-in is locked. */
  signInFailures: { max: number; windowSeconds: number; lockSeconds: number };
  srpChallengeTtlSeconds: number;
  /** How far the client's SRP TIMESTAMP may be from the server's clock. */
  srpClockSkewSeconds: number;
}

export const defaultTuning: PoolTuning = {
  passwordPolicy: defaultPasswordPolicy,
  signUpCodeTtlSeconds: 24 * 3600,
  resetCodeTtlSeconds: 3600,
  maxCodeAttempts: 5,
  codeSends: { max: 5, windowSeconds: 15 * 60 },
  signInFailures: { max: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 },
  srpChallengeTtlSeconds: 180,
  srpClockSkewSeconds: 300,
};

export interface IdentityPoolOptions {
  db: Kysely<Database>;
  mailer: Mailer;
  logger: Logger | false;
  userPoolId: string;
  clientId: string;
  /** The service's base URL; the issuer is `<publicUrl>/<userPoolId>`. Read at each use: with port 0 it is known only once listening. */
  publicUrl: () => string;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Where the signing key is kept (`<dir>/keys.json`); null: a fresh key in memory. */
  keyDir: string | null;
  tuning?: Partial<PoolTuning>;
  /** The pool's clock (tests move it). */
  now?: () => Date;
}

/** A user as the admin API shows it. */
export interface PoolUser {
  /** The immutable id: the `sub` claim, and the username Cognito's protocol uses. */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  attributes: Record<string, string>;
  status: 'UNCONFIRMED' | 'CONFIRMED';
  enabled: boolean;
  groups: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface PoolGroup {
  name: string;
  description: string;
  precedence: number | null;
}

export interface CodeDeliveryDetails {
  Destination: string;
  DeliveryMedium: 'EMAIL';
  AttributeName: 'email';
}

export interface AuthenticationResult extends SignedTokens {
  RefreshToken?: string;
}

export type InitiateAuthResult =
  | { ChallengeParameters: Record<string, never>; AuthenticationResult: AuthenticationResult }
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

type UserRow = Selectable<IdentityUsersTable>;

/** Standard OpenID Connect attributes a user may set at sign-up; `email` is the username itself. */
const WRITABLE_ATTRIBUTES = new Set([
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
  'address',
]);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const emailKey = (email: string) => email.trim().toLowerCase();
const notAuthorized = (message: string) => new CognitoError('NotAuthorizedException', message);

/** `j***@e***.com`: enough for a person to recognise their address, not enough to learn one. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***${tld}`;
}

export class IdentityPool {
  readonly userPoolId: string;
  readonly clientId: string;
  readonly tuning: PoolTuning;
  readonly #db: Kysely<Database>;
  readonly #mailer: Mailer;
  readonly #logger: Logger | false;
  readonly #keys: PoolKeys;
  readonly #publicUrl: () => string;
  readonly #now: () => Date;
  readonly #tokenTtl: number;
  readonly #refreshTtl: number;
  #keySet: JWTVerifyGetKey | undefined;

  private constructor(options: IdentityPoolOptions, keys: PoolKeys) {
    this.userPoolId = options.userPoolId;
    this.clientId = options.clientId;
    this.tuning = { ...defaultTuning, ...options.tuning };
    this.#db = options.db;
    this.#mailer = options.mailer;
    this.#logger = options.logger;
    this.#keys = keys;
    this.#publicUrl = options.publicUrl;
    this.#now = options.now ?? (() => new Date());
    this.#tokenTtl = options.tokenTtlSeconds;
    this.#refreshTtl = options.refreshTokenTtlSeconds;
  }

  /** Loads (or on first start makes) the signing key, then serves from the given database. */
  static async create(options: IdentityPoolOptions): Promise<IdentityPool> {
    return new IdentityPool(options, await loadOrCreateKeys(options.keyDir));
  }

  /** The part of the pool id after `_`: it salts every SRP verifier. */
  get poolName(): string {
    return this.userPoolId.slice(this.userPoolId.indexOf('_') + 1);
  }

  /** `iss` of every token: `<public URL>/<pool id>`, where `/.well-known/jwks.json` is served. */
  get issuer(): string {
    return `${this.#publicUrl()}/${this.userPoolId}`;
  }

  /** The public signing keys, as served at `<issuer>/.well-known/jwks.json`. */
  get jwks(): VerificationMaterial['jwks'] {
    return this.#keys.jwks;
  }

  /** The public keys as a jose key getter, for `jwtVerify`. */
  get keySet(): JWTVerifyGetKey {
    this.#keySet ??= createLocalJWKSet(this.#keys.jwks);
    return this.#keySet;
  }

  /** What a resource server needs to verify this pool's tokens. The issuer is read now: call it per use. */
  verification(): VerificationMaterial {
    return { issuer: this.issuer, clientId: this.clientId, jwks: this.#keys.jwks };
  }

  /** Verifies a token and that its sign-in is still alive and its user enabled. Throws TokenRejected. */
  async verifyToken(token: string, use: TokenUse): Promise<VerifiedToken> {
    const verified = await verifyIdentityToken(token, this.verification(), use, this.#now());
    const label = use === 'id' ? 'ID' : 'Access';
    const session = verified.originJti
      ? await this.#db
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

  // ---- Cognito operations (the protocol layer has checked the parameters' shapes) ----

  async signUp(input: {
    ClientId: string;
    Username: string;
    Password: string;
    UserAttributes?: { Name: string; Value: string }[];
  }): Promise<{ UserConfirmed: false; UserSub: string; CodeDeliveryDetails: CodeDeliveryDetails }> {
    this.#checkClient(input.ClientId);
    const email = input.Username.trim();
    if (!EMAIL.test(email))
      throw new CognitoError('InvalidParameterException', 'Username should be an email.');
    const attributes = this.#writableAttributes(input.UserAttributes ?? [], email);
    enforcePasswordPolicy(input.Password, this.tuning.passwordPolicy);
    const sub = randomUUID();
    const user = await this.#insertUser({
      sub,
      email,
      attributes,
      password: input.Password,
      status: 'UNCONFIRMED',
      emailVerified: false,
    });
    const CodeDeliveryDetails = await this.#sendCode(user, 'confirm_sign_up');
    return { UserConfirmed: false, UserSub: sub, CodeDeliveryDetails };
  }

  async confirmSignUp(input: {
    ClientId: string;
    Username: string;
    ConfirmationCode: string;
  }): Promise<object> {
    this.#checkClient(input.ClientId);
    const user = await this.#findUser(input.Username);
    if (!user?.enabled) throw new CognitoError('CodeMismatchException', m.codeMismatch);
    if (user.status === 'CONFIRMED') {
      throw notAuthorized('User cannot be confirmed. Current status is CONFIRMED');
    }
    await this.#useCode(user, 'confirm_sign_up', input.ConfirmationCode);
    await this.#db
      .updateTable('identity_users')
      .set({ status: 'CONFIRMED', email_verified: true, updated_at: this.#now() })
      .where('sub', '=', user.sub)
      .execute();
    this.#log({ sub: user.sub }, 'user confirmed their e-mail');
    return {};
  }

  async resendConfirmationCode(input: {
    ClientId: string;
    Username: string;
  }): Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }> {
    this.#checkClient(input.ClientId);
    const user = await this.#findUser(input.Username);
    if (!user?.enabled) return { CodeDeliveryDetails: this.#simulatedDelivery(input.Username) };
    if (user.status === 'CONFIRMED') {
      throw new CognitoError('InvalidParameterException', 'User is already confirmed.');
    }
    return { CodeDeliveryDetails: await this.#sendCode(user, 'confirm_sign_up') };
  }

  async initiateAuth(input: {
    ClientId: string;
    AuthFlow: string;
    AuthParameters: Record<string, string>;
  }): Promise<InitiateAuthResult> {
    this.#checkClient(input.ClientId);
    const p = input.AuthParameters;
    switch (input.AuthFlow) {
      case 'USER_PASSWORD_AUTH':
        return this.#passwordAuth(input.ClientId, required(p, 'USERNAME'), required(p, 'PASSWORD'));
      case 'USER_SRP_AUTH':
        return this.#startSrp(input.ClientId, required(p, 'USERNAME'), required(p, 'SRP_A'));
      case 'REFRESH_TOKEN_AUTH':
      case 'REFRESH_TOKEN':
        return this.#refresh(input.ClientId, required(p, 'REFRESH_TOKEN'));
      default:
        throw new CognitoError(
          'InvalidParameterException',
          `Auth flow ${input.AuthFlow} is not supported by this user pool: use USER_SRP_AUTH, USER_PASSWORD_AUTH or REFRESH_TOKEN_AUTH.`,
        );
    }
  }

  async respondToAuthChallenge(input: {
    ClientId: string;
    ChallengeName: string;
    Session?: string;
    ChallengeResponses: Record<string, string>;
  }): Promise<{ ChallengeParameters: Record<string, never>; AuthenticationResult: AuthenticationResult }> {
    this.#checkClient(input.ClientId);
    if (input.ChallengeName !== 'PASSWORD_VERIFIER') {
      throw new CognitoError(
        'InvalidParameterException',
        `Challenge ${input.ChallengeName} is not supported by this user pool: only PASSWORD_VERIFIER is.`,
      );
    }
    const r = input.ChallengeResponses;
    const username = required(r, 'USERNAME');
    const secretBlock = required(r, 'PASSWORD_CLAIM_SECRET_BLOCK');
    const signature = required(r, 'PASSWORD_CLAIM_SIGNATURE');
    const timestamp = required(r, 'TIMESTAMP');
    const now = this.#now();
    const id = sha256(secretBlock);
    const known = await this.#db
      .selectFrom('identity_srp_challenges')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!known) throw notAuthorized('Invalid session for the user.');
    // Claiming the challenge and using it are one step: a replayed SECRET_BLOCK finds it used.
    const challenge = await this.#db
      .updateTable('identity_srp_challenges')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!challenge) throw notAuthorized('Invalid session for the user, session can only be used once.');
    if (challenge.session_hash !== sha256(input.Session ?? '') || challenge.client_id !== input.ClientId) {
      throw notAuthorized('Invalid session for the user.');
    }
    if (challenge.expires_at <= now) throw notAuthorized('Invalid session for the user, session is expired.');
    const claimedAt = parseSrpTimestamp(timestamp);
    if (!claimedAt) {
      throw new CognitoError(
        'InvalidParameterException',
        'TIMESTAMP must look like "Sun Nov 22 01:34:39 UTC 2026" (UTC, day not zero-padded).',
      );
    }
    if (Math.abs(claimedAt.getTime() - now.getTime()) > this.tuning.srpClockSkewSeconds * 1000) {
      throw new CognitoError(
        'InvalidParameterException',
        `TIMESTAMP is more than ${this.tuning.srpClockSkewSeconds} seconds from the server's clock: check this device's clock.`,
      );
    }
    await this.#assertNotLocked(challenge.throttle_key);
    const user = challenge.user_sub ? await this.#findUser(challenge.user_sub) : undefined;
    const signed =
      user !== undefined &&
      (username === challenge.srp_user_id || emailKey(username) === user.email_key) &&
      verifyPasswordClaim({
        poolName: this.poolName,
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
      await this.#noteFailedPassword(challenge.throttle_key);
      throw notAuthorized(m.badCredentials);
    }
    await this.#clearThrottle(challenge.throttle_key);
    return { ChallengeParameters: {}, AuthenticationResult: await this.#signIn(user, input.ClientId) };
  }

  async forgotPassword(input: {
    ClientId: string;
    Username: string;
  }): Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }> {
    this.#checkClient(input.ClientId);
    const user = await this.#findUser(input.Username);
    // As Cognito with user-existence errors prevented: unknown, disabled and unverified users get
    // the same answer as everybody else, and no mail.
    if (!user?.enabled || !user.email_verified) {
      return { CodeDeliveryDetails: this.#simulatedDelivery(input.Username) };
    }
    return { CodeDeliveryDetails: await this.#sendCode(user, 'reset_password') };
  }

  async confirmForgotPassword(input: {
    ClientId: string;
    Username: string;
    ConfirmationCode: string;
    Password: string;
  }): Promise<object> {
    this.#checkClient(input.ClientId);
    enforcePasswordPolicy(input.Password, this.tuning.passwordPolicy);
    const user = await this.#findUser(input.Username);
    if (!user?.enabled) throw new CognitoError('CodeMismatchException', m.codeMismatch);
    await this.#useCode(user, 'reset_password', input.ConfirmationCode);
    await this.#setPassword(user.sub, input.Password);
    // Whoever knew the old password is signed out everywhere, and the lock (if any) is lifted.
    await this.#revokeSessions(user.sub);
    await this.#clearThrottle(`user:${user.sub}`);
    this.#log({ sub: user.sub }, 'password reset with an e-mailed code');
    return {};
  }

  async changePassword(input: {
    AccessToken: string;
    PreviousPassword: string;
    ProposedPassword: string;
  }): Promise<object> {
    const user = await this.#authenticate(input.AccessToken);
    const key = `user:${user.sub}`;
    await this.#assertNotLocked(key);
    if (!(await verifyPassword(input.PreviousPassword, user.password_hash))) {
      await this.#noteFailedPassword(key);
      throw notAuthorized(m.badCredentials);
    }
    enforcePasswordPolicy(input.ProposedPassword, this.tuning.passwordPolicy);
    await this.#setPassword(user.sub, input.ProposedPassword);
    this.#log({ sub: user.sub }, 'password changed');
    return {};
  }

  async getUser(input: { AccessToken: string }): Promise<{
    Username: string;
    UserAttributes: { Name: string; Value: string }[];
  }> {
    const user = await this.#authenticate(input.AccessToken);
    return {
      Username: user.sub,
      UserAttributes: [
        { Name: 'sub', Value: user.sub },
        { Name: 'email_verified', Value: String(user.email_verified) },
        ...Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value })),
        { Name: 'email', Value: user.email },
      ],
    };
  }

  async globalSignOut(input: { AccessToken: string }): Promise<object> {
    const user = await this.#authenticate(input.AccessToken);
    await this.#revokeSessions(user.sub);
    return {};
  }

  /** Revokes a refresh token and every token of its sign-in. Unknown tokens are answered alike (RFC 7009). */
  async revokeToken(input: { ClientId: string; Token: string }): Promise<object> {
    this.#checkClient(input.ClientId);
    const session = await this.#db
      .selectFrom('identity_sessions')
      .select(['origin_jti', 'client_id'])
      .where('refresh_token_hash', '=', sha256(input.Token))
      .executeTakeFirst();
    if (session && session.client_id !== input.ClientId) {
      throw new CognitoError('UnauthorizedException', 'The token was not issued to this app client.');
    }
    if (session) {
      await this.#db
        .updateTable('identity_sessions')
        .set({ revoked_at: this.#now() })
        .where('origin_jti', '=', session.origin_jti)
        .where('revoked_at', 'is', null)
        .execute();
    }
    return {};
  }

  // ---- Admin API (TypeScript only) ----

  /** Creates a confirmed user with a permanent password (an admin's "create account"). */
  async adminCreateUser(input: {
    email: string;
    password: string;
    name?: string;
    groups?: string[];
  }): Promise<PoolUser> {
    const email = input.email.trim();
    if (!EMAIL.test(email))
      throw new CognitoError('InvalidParameterException', 'Username should be an email.');
    enforcePasswordPolicy(input.password, this.tuning.passwordPolicy);
    const user = await this.#insertUser({
      sub: randomUUID(),
      email,
      attributes: input.name ? { name: input.name } : {},
      password: input.password,
      status: 'CONFIRMED',
      emailVerified: true,
    });
    for (const group of input.groups ?? []) await this.adminAddUserToGroup(user.sub, group);
    return this.#present(user);
  }

  /** By sub or e-mail address (any case); null when there is no such user. */
  async adminGetUser(username: string): Promise<PoolUser | null> {
    const user = await this.#findUser(username);
    return user ? this.#present(user) : null;
  }

  /** Users by e-mail address, `emailPrefix` narrowing; `after` is the last e-mail key of the previous page. */
  async listUsers(
    options: { limit?: number; after?: string; emailPrefix?: string } = {},
  ): Promise<{ users: PoolUser[]; next: string | null }> {
    const limit = Math.min(Math.max(options.limit ?? 60, 1), 1000);
    let query = this.#db
      .selectFrom('identity_users')
      .selectAll()
      .orderBy('email_key')
      .limit(limit + 1);
    if (options.after) query = query.where('email_key', '>', options.after);
    if (options.emailPrefix) {
      const prefix = emailKey(options.emailPrefix).replace(/[\\%_]/g, '\\$&');
      query = query.where('email_key', 'like', `${prefix}%`);
    }
    const rows = await query.execute();
    const page = rows.slice(0, limit);
    const groups = await this.#groupsOf(page.map((r) => r.sub));
    return {
      users: page.map((row) => this.#toPoolUser(row, groups.get(row.sub) ?? [])),
      next: rows.length > limit ? (page.at(-1)?.email_key ?? null) : null,
    };
  }

  /** Changes the e-mail address (the sign-in name) and other attributes; a new address counts as verified. */
  async adminUpdateUserAttributes(sub: string, attributes: Record<string, string>): Promise<PoolUser> {
    const user = await this.#requireUser(sub);
    const { email, ...rest } = attributes;
    const updated = { ...user.attributes };
    for (const [name, value] of Object.entries(rest)) {
      if (!WRITABLE_ATTRIBUTES.has(name)) {
        throw new CognitoError('InvalidParameterException', `Attribute ${name} cannot be written.`);
      }
      updated[name] = value;
    }
    if (email !== undefined && !EMAIL.test(email.trim())) {
      throw new CognitoError('InvalidParameterException', 'email should be an email address.');
    }
    try {
      await this.#db
        .updateTable('identity_users')
        .set({
          attributes: JSON.stringify(updated),
          updated_at: this.#now(),
          ...(email !== undefined
            ? { email: email.trim(), email_key: emailKey(email), email_verified: true }
            : {}),
        })
        .where('sub', '=', user.sub)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new CognitoError('UsernameExistsException', m.usernameExists);
      throw error;
    }
    return this.#present(await this.#requireUser(user.sub));
  }

  /** Sets a permanent password, confirms the user, and signs them out everywhere. */
  async adminSetUserPassword(sub: string, password: string): Promise<void> {
    const user = await this.#requireUser(sub);
    enforcePasswordPolicy(password, this.tuning.passwordPolicy);
    await this.#setPassword(user.sub, password, { status: 'CONFIRMED' });
    await this.#revokeSessions(user.sub);
    await this.#clearThrottle(`user:${user.sub}`);
  }

  /** A disabled user cannot sign in or refresh, and every token they hold stops working. */
  async adminDisableUser(sub: string): Promise<void> {
    const user = await this.#requireUser(sub);
    await this.#db
      .updateTable('identity_users')
      .set({ enabled: false, updated_at: this.#now() })
      .where('sub', '=', user.sub)
      .execute();
    await this.#revokeSessions(user.sub);
  }

  async adminEnableUser(sub: string): Promise<void> {
    const user = await this.#requireUser(sub);
    await this.#db
      .updateTable('identity_users')
      .set({ enabled: true, updated_at: this.#now() })
      .where('sub', '=', user.sub)
      .execute();
  }

  /** Deletes the user with their codes, sessions and group memberships. */
  async adminDeleteUser(sub: string): Promise<void> {
    const user = await this.#requireUser(sub);
    await this.#db.deleteFrom('identity_users').where('sub', '=', user.sub).execute();
  }

  async adminUserGlobalSignOut(sub: string): Promise<void> {
    await this.#revokeSessions((await this.#requireUser(sub)).sub);
  }

  async listGroups(): Promise<PoolGroup[]> {
    return this.#db
      .selectFrom('identity_groups')
      .select(['name', 'description', 'precedence'])
      .orderBy('precedence')
      .orderBy('name')
      .execute();
  }

  async createGroup(group: { name: string; description?: string; precedence?: number }): Promise<PoolGroup> {
    try {
      return await this.#db
        .insertInto('identity_groups')
        .values({
          name: group.name,
          description: group.description ?? '',
          precedence: group.precedence ?? null,
        })
        .returning(['name', 'description', 'precedence'])
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new CognitoError('GroupExistsException', 'A group with the name already exists.');
      throw error;
    }
  }

  /** Group membership shows in the next tokens' `cognito:groups`. */
  async adminAddUserToGroup(sub: string, groupName: string): Promise<void> {
    const user = await this.#requireUser(sub);
    await this.#requireGroup(groupName);
    await this.#db
      .insertInto('identity_user_groups')
      .values({ user_sub: user.sub, group_name: groupName })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async adminRemoveUserFromGroup(sub: string, groupName: string): Promise<void> {
    const user = await this.#requireUser(sub);
    await this.#requireGroup(groupName);
    await this.#db
      .deleteFrom('identity_user_groups')
      .where('user_sub', '=', user.sub)
      .where('group_name', '=', groupName)
      .execute();
  }

  async adminListGroupsForUser(sub: string): Promise<string[]> {
    const user = await this.#requireUser(sub);
    return (await this.#groupsOf([user.sub])).get(user.sub) ?? [];
  }

  // ---- sign-in ----

  async #passwordAuth(clientId: string, username: string, password: string): Promise<InitiateAuthResult> {
    const user = await this.#findUser(username);
    const key = user ? `user:${user.sub}` : `name:${emailKey(username)}`;
    await this.#assertNotLocked(key);
    // An unknown user costs one scrypt too, so the answer's timing says nothing.
    const ok = await verifyPassword(password, user?.password_hash ?? null);
    if (!ok || !user) {
      await this.#noteFailedPassword(key);
      throw notAuthorized(m.badCredentials);
    }
    await this.#clearThrottle(key);
    return { ChallengeParameters: {}, AuthenticationResult: await this.#signIn(user, clientId) };
  }

  async #startSrp(clientId: string, username: string, srpA: string): Promise<InitiateAuthResult> {
    const A = parseHex(srpA);
    if (A === null || A % N === 0n)
      throw new CognitoError('InvalidParameterException', 'SRP_A is not a valid SRP value.');
    const user = await this.#findUser(username);
    const throttleKey = user ? `user:${user.sub}` : `name:${emailKey(username)}`;
    await this.#assertNotLocked(throttleKey);
    // An unknown name gets a challenge that looks like a real one, stable per name (as Cognito's).
    const srpUserId = user ? user.sub : this.#derivedUuid(`srp-id:${emailKey(username)}`);
    const salt = user
      ? user.srp_salt
      : this.#derive(`srp-salt:${emailKey(username)}`)
          .subarray(0, 16)
          .toString('hex');
    const verifier = user ? user.srp_verifier : randomBytes(384).toString('hex');
    const { b, B } = serverEphemeral(verifier);
    const secretBlock = randomBytes(64).toString('base64');
    const session = randomBytes(48).toString('base64url');
    const now = this.#now();
    await this.#db.deleteFrom('identity_srp_challenges').where('expires_at', '<', now).execute();
    await this.#db
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
        expires_at: new Date(now.getTime() + this.tuning.srpChallengeTtlSeconds * 1000),
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

  /** A dead refresh token is refused at once: the client retries every failure for seconds. */
  async #refresh(clientId: string, refreshToken: string): Promise<InitiateAuthResult> {
    const session = await this.#db
      .selectFrom('identity_sessions')
      .selectAll()
      .where('refresh_token_hash', '=', sha256(refreshToken))
      .executeTakeFirst();
    if (!session || session.client_id !== clientId) throw notAuthorized('Invalid Refresh Token');
    if (session.revoked_at) throw notAuthorized('Refresh Token has been revoked');
    if (session.expires_at <= this.#now()) throw notAuthorized('Refresh Token has expired');
    const user = await this.#findUser(session.user_sub);
    if (!user) throw notAuthorized('Invalid Refresh Token');
    if (!user.enabled) throw notAuthorized(m.disabled);
    const tokens = await this.#tokensFor(user, {
      originJti: session.origin_jti,
      authTime: session.auth_time,
      clientId,
    });
    return { ChallengeParameters: {}, AuthenticationResult: tokens };
  }

  /** After the password checked out: the account must be usable, then a new session starts. */
  async #signIn(user: UserRow, clientId: string): Promise<AuthenticationResult> {
    if (!user.enabled) throw notAuthorized(m.disabled);
    if (user.status !== 'CONFIRMED') throw new CognitoError('UserNotConfirmedException', m.notConfirmed);
    const now = this.#now();
    const refreshToken = randomBytes(48).toString('base64url');
    const originJti = randomUUID();
    await this.#db
      .insertInto('identity_sessions')
      .values({
        origin_jti: originJti,
        user_sub: user.sub,
        client_id: clientId,
        refresh_token_hash: sha256(refreshToken),
        auth_time: now,
        expires_at: new Date(now.getTime() + this.#refreshTtl * 1000),
      })
      .execute();
    const tokens = await this.#tokensFor(user, { originJti, authTime: now, clientId });
    return { ...tokens, RefreshToken: refreshToken };
  }

  async #tokensFor(
    user: UserRow,
    session: { originJti: string; authTime: Date; clientId: string },
  ): Promise<SignedTokens> {
    const groups = (await this.#groupsOf([user.sub])).get(user.sub) ?? [];
    return signTokens(
      this.#keys,
      this.issuer,
      {
        sub: user.sub,
        email: user.email,
        emailVerified: user.email_verified,
        attributes: user.attributes,
        groups,
      },
      session,
      this.#now(),
      this.#tokenTtl,
    );
  }

  /** The user behind a valid, unrevoked access token; Cognito's NotAuthorizedException otherwise. */
  async #authenticate(accessToken: string): Promise<UserRow> {
    let verified: VerifiedToken;
    try {
      verified = await this.verifyToken(accessToken, 'access');
    } catch (error) {
      if (error instanceof TokenRejected) throw notAuthorized(error.message);
      throw error;
    }
    const user = await this.#findUser(verified.sub);
    if (!user) throw new CognitoError('UserNotFoundException', m.userNotFound);
    return user;
  }

  // ---- codes ----

  async #sendCode(user: UserRow, purpose: CodePurpose): Promise<CodeDeliveryDetails> {
    await this.#countCodeSend(user.sub);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const ttl =
      purpose === 'confirm_sign_up' ? this.tuning.signUpCodeTtlSeconds : this.tuning.resetCodeTtlSeconds;
    const expiresAt = new Date(this.#now().getTime() + ttl * 1000);
    const row = {
      code_hash: this.#codeHash(user.sub, purpose, code),
      failed_attempts: 0,
      expires_at: expiresAt,
    };
    // A new code replaces the previous one of the same purpose.
    await this.#db
      .insertInto('identity_codes')
      .values({ user_sub: user.sub, purpose, ...row })
      .onConflict((oc) => oc.columns(['user_sub', 'purpose']).doUpdateSet(row))
      .execute();
    await this.#mailer.send(codeMail(purpose, user.email, user.attributes.name, code, ttl));
    return { Destination: maskEmail(user.email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
  }

  /** Checks and spends a code: each works once, until it expires, for a few wrong tries. */
  async #useCode(user: UserRow, purpose: CodePurpose, code: string): Promise<void> {
    const row = await this.#db
      .selectFrom('identity_codes')
      .selectAll()
      .where('user_sub', '=', user.sub)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.expires_at <= this.#now()) throw new CognitoError('ExpiredCodeException', m.codeExpired);
    if (row.failed_attempts >= this.tuning.maxCodeAttempts) {
      throw new CognitoError('LimitExceededException', m.codeAttemptsExceeded);
    }
    const given = Buffer.from(this.#codeHash(user.sub, purpose, code));
    if (!timingSafeEqual(given, Buffer.from(row.code_hash))) {
      await this.#db
        .updateTable('identity_codes')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('user_sub', '=', user.sub)
        .where('purpose', '=', purpose)
        .execute();
      throw new CognitoError('CodeMismatchException', m.codeMismatch);
    }
    const spent = await this.#db
      .deleteFrom('identity_codes')
      .where('user_sub', '=', user.sub)
      .where('purpose', '=', purpose)
      .where('code_hash', '=', row.code_hash)
      .returning('user_sub')
      .executeTakeFirst();
    // Two requests with the same code: only the first one wins.
    if (!spent) throw new CognitoError('ExpiredCodeException', m.codeExpired);
  }

  #codeHash(sub: string, purpose: CodePurpose, code: string): string {
    return this.#derive(`code:${purpose}:${sub}:${code}`).toString('hex');
  }

  #simulatedDelivery(username: string): CodeDeliveryDetails {
    const email = EMAIL.test(username.trim()) ? username.trim() : `${username}@example.com`;
    return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
  }

  // ---- throttles ----

  /** Adds one to a counter for a window; returns the count within the current window. */
  async #bump(key: string, windowSeconds: number): Promise<number> {
    const now = this.#now();
    const windowStart = new Date(now.getTime() - windowSeconds * 1000);
    const row = await this.#db
      .insertInto('identity_throttles')
      .values({ key, failures: 1, window_started_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when identity_throttles.window_started_at < ${windowStart} then 1 else identity_throttles.failures + 1 end`,
          window_started_at: sql`case when identity_throttles.window_started_at < ${windowStart} then ${now} else identity_throttles.window_started_at end`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return row.failures;
  }

  async #assertNotLocked(key: string): Promise<void> {
    const row = await this.#db
      .selectFrom('identity_throttles')
      .select('locked_until')
      .where('key', '=', key)
      .executeTakeFirst();
    if (row?.locked_until && row.locked_until > this.#now()) throw notAuthorized(m.attemptsExceeded);
  }

  async #noteFailedPassword(key: string): Promise<void> {
    const { max, windowSeconds, lockSeconds } = this.tuning.signInFailures;
    const failures = await this.#bump(key, windowSeconds);
    if (failures >= max) {
      await this.#db
        .updateTable('identity_throttles')
        .set({ locked_until: new Date(this.#now().getTime() + lockSeconds * 1000), failures: 0 })
        .where('key', '=', key)
        .execute();
      this.#log({ throttle: key }, `sign-in locked for ${lockSeconds} s after ${failures} wrong passwords`);
    }
  }

  async #clearThrottle(key: string): Promise<void> {
    await this.#db.deleteFrom('identity_throttles').where('key', '=', key).execute();
  }

  async #countCodeSend(sub: string): Promise<void> {
    const { max, windowSeconds } = this.tuning.codeSends;
    if ((await this.#bump(`send:${sub}`, windowSeconds)) > max) {
      throw new CognitoError('LimitExceededException', m.sendLimitExceeded);
    }
  }

  // ---- users ----

  async #insertUser(input: {
    sub: string;
    email: string;
    attributes: Record<string, string>;
    password: string;
    status: 'UNCONFIRMED' | 'CONFIRMED';
    emailVerified: boolean;
  }): Promise<UserRow> {
    const { salt, verifier } = createVerifier(this.poolName, input.sub, input.password);
    try {
      return await this.#db
        .insertInto('identity_users')
        .values({
          sub: input.sub,
          email: input.email,
          email_key: emailKey(input.email),
          email_verified: input.emailVerified,
          status: input.status,
          attributes: JSON.stringify(input.attributes),
          password_hash: await hashPassword(input.password),
          srp_salt: salt,
          srp_verifier: verifier,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new CognitoError('UsernameExistsException', m.usernameExists);
      throw error;
    }
  }

  async #setPassword(sub: string, password: string, extra: { status?: 'CONFIRMED' } = {}): Promise<void> {
    const { salt, verifier } = createVerifier(this.poolName, sub, password);
    await this.#db
      .updateTable('identity_users')
      .set({
        password_hash: await hashPassword(password),
        srp_salt: salt,
        srp_verifier: verifier,
        updated_at: this.#now(),
        ...extra,
      })
      .where('sub', '=', sub)
      .execute();
  }

  async #revokeSessions(sub: string): Promise<void> {
    await this.#db
      .updateTable('identity_sessions')
      .set({ revoked_at: this.#now() })
      .where('user_sub', '=', sub)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** By e-mail address (any case) or by sub: the client sends either, depending on the step. */
  async #findUser(username: string): Promise<UserRow | undefined> {
    const trimmed = username.trim();
    return this.#db
      .selectFrom('identity_users')
      .selectAll()
      .where((eb) =>
        UUID.test(trimmed)
          ? eb.or([eb('sub', '=', trimmed.toLowerCase()), eb('email_key', '=', emailKey(trimmed))])
          : eb('email_key', '=', emailKey(trimmed)),
      )
      .executeTakeFirst();
  }

  async #requireUser(username: string): Promise<UserRow> {
    const user = await this.#findUser(username);
    if (!user) throw new CognitoError('UserNotFoundException', m.userNotFound);
    return user;
  }

  async #requireGroup(name: string): Promise<void> {
    const group = await this.#db
      .selectFrom('identity_groups')
      .select('name')
      .where('name', '=', name)
      .executeTakeFirst();
    if (!group) throw new CognitoError('ResourceNotFoundException', `Group ${name} not found.`);
  }

  async #groupsOf(subs: string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (subs.length === 0) return result;
    const rows = await this.#db
      .selectFrom('identity_user_groups')
      .innerJoin('identity_groups', 'identity_groups.name', 'identity_user_groups.group_name')
      .select(['identity_user_groups.user_sub', 'identity_groups.name'])
      .where('identity_user_groups.user_sub', 'in', subs)
      .orderBy('identity_groups.precedence')
      .orderBy('identity_groups.name')
      .execute();
    for (const row of rows) result.set(row.user_sub, [...(result.get(row.user_sub) ?? []), row.name]);
    return result;
  }

  async #present(user: UserRow): Promise<PoolUser> {
    return this.#toPoolUser(user, (await this.#groupsOf([user.sub])).get(user.sub) ?? []);
  }

  #toPoolUser(user: UserRow, groups: string[]): PoolUser {
    return {
      sub: user.sub,
      email: user.email,
      emailVerified: user.email_verified,
      name: user.attributes.name ?? null,
      attributes: user.attributes,
      status: user.status,
      enabled: user.enabled,
      groups,
      createdAt: user.created_at,
      updatedAt: user.updated_at,
    };
  }

  #writableAttributes(list: { Name: string; Value: string }[], email: string): Record<string, string> {
    const attributes: Record<string, string> = {};
    for (const { Name, Value } of list) {
      if (Name === 'email') {
        if (emailKey(Value) !== emailKey(email)) {
          throw new CognitoError('InvalidParameterException', 'The email attribute must be the username.');
        }
      } else if (WRITABLE_ATTRIBUTES.has(Name)) {
        if (Value.length > 2048) {
          throw new CognitoError(
            'InvalidParameterException',
            `Attribute ${Name} is longer than 2048 characters.`,
          );
        }
        attributes[Name] = Value;
      } else {
        throw new CognitoError(
          'InvalidParameterException',
          `Attributes did not conform to the schema: ${Name}: Attribute does not exist in the schema or cannot be written.`,
        );
      }
    }
    return attributes;
  }

  #checkClient(clientId: string): void {
    if (clientId !== this.clientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
  }

  #derive(label: string): Buffer {
    return createHmac('sha256', this.#keys.secret).update(label).digest();
  }

  #derivedUuid(label: string): string {
    const hex = this.#derive(label).subarray(0, 16).toString('hex');
    const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  #log(fields: object, message: string): void {
    if (this.#logger) this.#logger.info({ identity: fields }, message);
  }
}

function required(parameters: Record<string, string>, name: string): string {
  const value = parameters[name];
  if (typeof value !== 'string' || value === '') {
    throw new CognitoError('InvalidParameterException', `Missing required parameter ${name}`);
  }
  return value;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}
