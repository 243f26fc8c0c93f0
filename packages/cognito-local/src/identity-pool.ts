/**
 * The built-in user pool: the identity provider of the embedded setup. It keeps users, groups,
 * codes and sessions in the service's database and answers the Amazon Cognito user pool API
 * (the protocol itself is in `protocol.ts`), so `amazon-cognito-identity-js` works against it
 * unchanged. With an Amazon Cognito pool configured it is not created at all.
 *
 * This class is the operations a client calls, each checking its app client and its rules; the
 * work is done by its parts: `sign-in.ts` (password, SRP, refresh, sessions), `codes.ts` and
 * `throttles.ts` (e-mailed codes, lockouts), `user-store.ts` (the SQL), and `admin-operations.ts`
 * (`pool.admin`: Cognito's Admin* operations, a TypeScript API only).
 *
 * For the rest of the server:
 * - `IdentityPool.verification()`: issuer, app client id and public JWKS, to verify this pool's
 *   tokens with jose (`createLocalJWKSet(jwks)`); `verifyIdentityToken` (from `tokens.ts`, also
 *   exported here) does it the same way for the pool itself.
 * - `IdentityPool.verifyToken()`: the same plus what only the pool knows: the sign-in was not
 *   revoked (sign-out) and the user still exists and is enabled.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import { AdminOperations } from './admin-operations.js';
import type { CodeMailer } from './code-mail.js';
import { type CodeDeliveryDetails, Codes } from './codes.js';
import { CognitoError, cognitoMessages as m } from './errors.js';
import type { HostDatabase } from './host-database.js';
import { loadOrCreateKeys, type PoolKeys } from './keys.js';
import { type MfaChallenge, MfaChallenges } from './mfa-challenges.js';
import { enforcePasswordPolicy, verifyPassword } from './passwords.js';
import { defaultTuning, notAuthorized, type PoolContext, type PoolTuning, required } from './pool-context.js';
import {
  type AuthenticationResult,
  type InitiateAuthResult,
  type MfaRequirement,
  type SignedIn,
  SignIn,
} from './sign-in.js';
import { SoftwareTokens } from './software-tokens.js';
import { type PoolClient, Throttles } from './throttles.js';
import {
  TokenRejected,
  type TokenUse,
  type VerificationMaterial,
  type VerifiedToken,
  verifyIdentityToken,
} from './tokens.js';
import { EMAIL, emailKey, UserStore, WRITABLE_ATTRIBUTES } from './user-store.js';

export type { AuthenticationResult, CodeDeliveryDetails, InitiateAuthResult, PoolTuning };
export { TokenRejected, type VerificationMaterial, type VerifiedToken, verifyIdentityToken };

export interface IdentityPoolOptions {
  /** A database with the pool's tables (`createIdentityTables`); the caller opens and closes it. */
  db: HostDatabase;
  mailer: CodeMailer;
  logger: FastifyBaseLogger | false;
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
  /**
   * Whether a user (by groups or e-mail) must sign in with an authenticator code; one who has none
   * is sent to enrol (MFA_SETUP) at sign-in and cannot turn it off. Default: nobody must.
   */
  requireMfa?: MfaRequirement;
}

export class IdentityPool {
  readonly userPoolId: string;
  readonly clientId: string;
  readonly tuning: PoolTuning;
  /** Cognito's Admin* operations, for the service's own admin features. */
  readonly admin: AdminOperations;
  readonly #keys: PoolKeys;
  readonly #publicUrl: () => string;
  readonly #pool: PoolContext;
  readonly #users: UserStore;
  readonly #throttles: Throttles;
  readonly #codes: Codes;
  readonly #signIn: SignIn;
  readonly #softwareTokens: SoftwareTokens;
  readonly #mfa: MfaChallenges;
  #keySet: JWTVerifyGetKey | undefined;

  private constructor(options: IdentityPoolOptions, keys: PoolKeys) {
    this.userPoolId = options.userPoolId;
    this.clientId = options.clientId;
    this.tuning = { ...defaultTuning, ...options.tuning };
    this.#keys = keys;
    this.#publicUrl = options.publicUrl;
    const { logger } = options;
    this.#pool = {
      db: options.db,
      tuning: this.tuning,
      now: options.now ?? (() => new Date()),
      poolName: this.poolName,
      derive: (label) => createHmac('sha256', keys.secret).update(label).digest(),
      log: (fields, message) => {
        if (logger) logger.info({ identity: fields }, message);
      },
    };
    this.#users = new UserStore(this.#pool);
    this.#throttles = new Throttles(this.#pool);
    this.#codes = new Codes(this.#pool, options.mailer, this.#throttles);
    this.#softwareTokens = new SoftwareTokens(this.#pool);
    this.#mfa = new MfaChallenges(this.#pool);
    this.#signIn = new SignIn(this.#pool, this.#users, this.#throttles, {
      keys,
      verification: () => this.verification(),
      tokenTtlSeconds: options.tokenTtlSeconds,
      refreshTokenTtlSeconds: options.refreshTokenTtlSeconds,
      requireMfa: options.requireMfa ?? (() => false),
      tokens: this.#softwareTokens,
      mfa: this.#mfa,
    });
    this.admin = new AdminOperations(this.#pool, this.#users, this.#throttles, this.#softwareTokens);
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
  verifyToken(token: string, use: TokenUse): Promise<VerifiedToken> {
    return this.#signIn.verifyToken(token, use);
  }

  // ---- Cognito operations (the protocol layer has checked the parameters' shapes) ----

  async signUp(
    input: {
      ClientId: string;
      Username: string;
      Password: string;
      UserAttributes?: { Name: string; Value: string }[];
    },
    client?: PoolClient,
  ): Promise<{ UserConfirmed: false; UserSub: string; CodeDeliveryDetails: CodeDeliveryDetails }> {
    this.#checkClient(input.ClientId);
    const email = input.Username.trim();
    if (!EMAIL.test(email))
      throw new CognitoError('InvalidParameterException', 'Username should be an email.');
    const attributes = writableAttributes(input.UserAttributes ?? [], email);
    enforcePasswordPolicy(input.Password, this.tuning.passwordPolicy);
    await this.#throttles.countSignUp(client);
    const user = await this.#users.insert({
      email,
      attributes,
      password: input.Password,
      status: 'UNCONFIRMED',
      emailVerified: false,
    });
    const CodeDeliveryDetails = await this.#codes.send(user, 'confirm_sign_up');
    return { UserConfirmed: false, UserSub: user.sub, CodeDeliveryDetails };
  }

  async confirmSignUp(input: {
    ClientId: string;
    Username: string;
    ConfirmationCode: string;
  }): Promise<object> {
    this.#checkClient(input.ClientId);
    const user = await this.#users.find(input.Username);
    if (!user?.enabled) throw new CognitoError('CodeMismatchException', m.codeMismatch);
    if (user.status === 'CONFIRMED') {
      throw notAuthorized('User cannot be confirmed. Current status is CONFIRMED');
    }
    await this.#codes.use(user, 'confirm_sign_up', input.ConfirmationCode);
    await this.#users.update(user.sub, { status: 'CONFIRMED', emailVerified: true });
    this.#pool.log({ sub: user.sub }, 'user confirmed their e-mail');
    return {};
  }

  async resendConfirmationCode(input: {
    ClientId: string;
    Username: string;
  }): Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }> {
    this.#checkClient(input.ClientId);
    // Counted per name whether or not it exists: the limit answers all alike.
    await this.#throttles.countResendRequest(input.Username);
    const user = await this.#users.find(input.Username);
    // As forgot-password: unknown, disabled and confirmed users get the same answer as an
    // unconfirmed one, and no mail, so the answer tells nobody whether an address is confirmed.
    if (!user?.enabled || user.status === 'CONFIRMED') {
      return { CodeDeliveryDetails: this.#codes.simulatedDelivery(input.Username) };
    }
    try {
      return { CodeDeliveryDetails: await this.#codes.send(user, 'confirm_sign_up') };
    } catch (error) {
      // The user's own mail limit must not tell them apart either.
      if (!(error instanceof CognitoError && error.type === 'LimitExceededException')) throw error;
      return { CodeDeliveryDetails: this.#codes.simulatedDelivery(input.Username) };
    }
  }

  async initiateAuth(
    input: { ClientId: string; AuthFlow: string; AuthParameters: Record<string, string> },
    client?: PoolClient,
  ): Promise<InitiateAuthResult> {
    this.#checkClient(input.ClientId);
    const p = input.AuthParameters;
    switch (input.AuthFlow) {
      case 'USER_PASSWORD_AUTH':
        return this.#signIn.password(
          input.ClientId,
          required(p, 'USERNAME'),
          required(p, 'PASSWORD'),
          client,
        );
      case 'USER_SRP_AUTH':
        return this.#signIn.startSrp(input.ClientId, required(p, 'USERNAME'), required(p, 'SRP_A'), client);
      case 'REFRESH_TOKEN_AUTH':
      case 'REFRESH_TOKEN':
        return this.#signIn.refresh(input.ClientId, required(p, 'REFRESH_TOKEN'));
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
  }): Promise<SignedIn | MfaChallenge> {
    this.#checkClient(input.ClientId);
    const { ClientId, Session, ChallengeResponses } = input;
    switch (input.ChallengeName) {
      case 'PASSWORD_VERIFIER':
        return this.#signIn.answerPasswordVerifier(ClientId, Session, ChallengeResponses);
      case 'SOFTWARE_TOKEN_MFA':
        return this.#signIn.answerSoftwareTokenMfa(ClientId, Session, ChallengeResponses);
      case 'MFA_SETUP':
        return this.#signIn.answerMfaSetup(ClientId, Session, ChallengeResponses);
      default:
        throw new CognitoError(
          'InvalidParameterException',
          `Challenge ${input.ChallengeName} is not supported by this user pool: PASSWORD_VERIFIER, SOFTWARE_TOKEN_MFA and MFA_SETUP are.`,
        );
    }
  }

  // ---- the second factor: an authenticator app (TOTP) ----

  /**
   * A new secret for an authenticator app, for the signed-in user (AccessToken) or for one
   * enrolling during sign-in (the MFA_SETUP Session, handed back unchanged).
   */
  async associateSoftwareToken(input: {
    AccessToken?: string;
    Session?: string;
  }): Promise<{ SecretCode: string; Session?: string }> {
    if (input.AccessToken) {
      const user = await this.#signIn.authenticate(input.AccessToken);
      return { SecretCode: await this.#softwareTokens.associate(user.sub) };
    }
    const sub = await this.#mfa.userOf(input.Session, 'MFA_SETUP');
    return { SecretCode: await this.#softwareTokens.associate(sub), Session: input.Session ?? '' };
  }

  /**
   * Checks a code from the app against the secret just associated; the secret is then the user's.
   * Enrolled during sign-in, codes are required from then on; enrolled while signed in, they are
   * turned on by SetUserMFAPreference, as in Cognito. `RecoveryCodes` is this pool's addition
   * (Amazon Cognito has none): ten single-use codes, shown this once.
   */
  async verifySoftwareToken(input: {
    AccessToken?: string;
    Session?: string;
    UserCode: string;
    FriendlyDeviceName?: string;
  }): Promise<{ Status: 'SUCCESS'; Session?: string; RecoveryCodes: string[] }> {
    const duringSignIn = !input.AccessToken;
    const sub = input.AccessToken
      ? (await this.#signIn.authenticate(input.AccessToken)).sub
      : await this.#mfa.userOf(input.Session, 'MFA_SETUP');
    const verified = await this.#softwareTokens.verifyPending(sub, input.UserCode.trim(), {
      friendlyName: input.FriendlyDeviceName ?? null,
      enable: duringSignIn,
    });
    if (!verified) {
      throw new CognitoError(
        'EnableSoftwareTokenMFAException',
        'Code mismatch and fail enable Software Token MFA',
      );
    }
    const RecoveryCodes = await this.#softwareTokens.newRecoveryCodes(sub);
    this.#pool.log({ sub }, 'authenticator app enrolled');
    return { Status: 'SUCCESS', ...(duringSignIn ? { Session: input.Session ?? '' } : {}), RecoveryCodes };
  }

  /** Turns authenticator codes at sign-in on or off. SMS and e-mail codes are not offered. */
  async setUserMfaPreference(input: {
    AccessToken: string;
    SoftwareTokenMfaSettings?: { Enabled?: boolean; PreferredMfa?: boolean };
    SMSMfaSettings?: { Enabled?: boolean };
    EmailMfaSettings?: { Enabled?: boolean };
  }): Promise<object> {
    const user = await this.#signIn.authenticate(input.AccessToken);
    if (input.SMSMfaSettings?.Enabled || input.EmailMfaSettings?.Enabled) {
      throw new CognitoError(
        'InvalidParameterException',
        'This user pool offers authenticator apps (software tokens) only, not SMS or e-mail codes.',
      );
    }
    const enabled = input.SoftwareTokenMfaSettings?.Enabled;
    if (enabled === undefined) return {};
    if (!enabled && (await this.#signIn.mustUseMfa(user))) {
      throw new CognitoError(
        'InvalidParameterException',
        'Your role requires a second factor: it cannot be turned off.',
      );
    }
    if (!(await this.#softwareTokens.setEnabled(user.sub, enabled))) {
      throw new CognitoError('InvalidParameterException', 'User has not verified software token mfa');
    }
    this.#pool.log({ sub: user.sub, enabled }, 'authenticator codes at sign-in changed');
    return {};
  }

  async forgotPassword(input: {
    ClientId: string;
    Username: string;
  }): Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }> {
    this.#checkClient(input.ClientId);
    // Counted per name whether or not it exists: the limit answers both alike.
    await this.#throttles.countResetRequest(input.Username);
    const user = await this.#users.find(input.Username);
    // As Cognito with user-existence errors prevented: unknown, disabled and unverified users get
    // the same answer as everybody else, and no mail.
    if (!user?.enabled || !user.email_verified) {
      return { CodeDeliveryDetails: this.#codes.simulatedDelivery(input.Username) };
    }
    try {
      return { CodeDeliveryDetails: await this.#codes.send(user, 'reset_password') };
    } catch (error) {
      // The user's own mail limit (sign-up codes and resends count too) must not tell them apart.
      if (!(error instanceof CognitoError && error.type === 'LimitExceededException')) throw error;
      return { CodeDeliveryDetails: this.#codes.simulatedDelivery(input.Username) };
    }
  }

  async confirmForgotPassword(input: {
    ClientId: string;
    Username: string;
    ConfirmationCode: string;
    Password: string;
  }): Promise<object> {
    this.#checkClient(input.ClientId);
    enforcePasswordPolicy(input.Password, this.tuning.passwordPolicy);
    const user = await this.#users.find(input.Username);
    if (!user?.enabled) throw new CognitoError('CodeMismatchException', m.codeMismatch);
    await this.#codes.use(user, 'reset_password', input.ConfirmationCode);
    await this.#users.setPassword(user.sub, input.Password);
    // Whoever knew the old password is signed out everywhere, and the lock (if any) is lifted.
    await this.#users.revokeSessions(user.sub);
    await this.#throttles.clearAccount(user.sub);
    this.#pool.log({ sub: user.sub }, 'password reset with an e-mailed code');
    return {};
  }

  async changePassword(
    input: { AccessToken: string; PreviousPassword: string; ProposedPassword: string },
    client?: PoolClient,
  ): Promise<object> {
    const user = await this.#signIn.authenticate(input.AccessToken);
    const key = this.#throttles.signInKeys(user, user.email, client);
    await this.#throttles.assertNotLocked(key);
    if (!(await verifyPassword(input.PreviousPassword, user.password_hash))) {
      await this.#throttles.noteFailedPassword(key);
      throw notAuthorized(m.badCredentials);
    }
    enforcePasswordPolicy(input.ProposedPassword, this.tuning.passwordPolicy);
    await this.#users.setPassword(user.sub, input.ProposedPassword);
    // Whoever knew the old password is signed out everywhere else; this sign-in goes on.
    const { originJti } = await this.#signIn.verifyToken(input.AccessToken, 'access');
    await this.#users.revokeSessions(user.sub, originJti ?? undefined);
    this.#pool.log({ sub: user.sub }, 'password changed');
    return {};
  }

  async getUser(input: { AccessToken: string }): Promise<{
    Username: string;
    UserAttributes: { Name: string; Value: string }[];
    UserMFASettingList?: string[];
    PreferredMfaSetting?: string;
  }> {
    const user = await this.#signIn.authenticate(input.AccessToken);
    const mfa = (await this.#softwareTokens.state(user.sub)).enabled
      ? { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'], PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' }
      : {};
    return {
      ...mfa,
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
    const user = await this.#signIn.authenticate(input.AccessToken);
    await this.#users.revokeSessions(user.sub);
    return {};
  }

  /** Revokes a refresh token and every token of its sign-in. Unknown tokens are answered alike (RFC 7009). */
  async revokeToken(input: { ClientId: string; Token: string }): Promise<object> {
    this.#checkClient(input.ClientId);
    await this.#signIn.revoke(input.ClientId, input.Token);
    return {};
  }

  #checkClient(clientId: string): void {
    if (clientId !== this.clientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
  }
}

function writableAttributes(list: { Name: string; Value: string }[], email: string): Record<string, string> {
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
