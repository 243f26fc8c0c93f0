import { messages, type RouteAuth } from '@scrub/contract';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ensureProfile } from '../account/profiles.js';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';
import { mayActAs, permits } from './access.js';
import { type ActAsTokens, looksLikeActAsToken } from './act-as-tokens.js';
import type { ApiKeyOwners } from './api-key-owners.js';
import { looksLikeApiKey } from './api-keys.js';
import type { MfaStanding } from './mfa-standing.js';
import type { PoolStanding } from './pool-standing.js';
import type { Principal } from './principal.js';
import { isAdminRole, roleOfIdentity } from './roles.js';
import { assertInGoodStanding, noteSignIn } from './standing.js';
import { cognitoIssuer, createTokenVerifier, type TokenVerifier } from './token-verifier.js';

/** What a route asks of its callers. */
export interface AuthRequirement {
  auth: RouteAuth;
  apiKeyInQuery?: boolean;
  /** Refused to acting sessions (`RouteSpec.ownerOnly`). */
  ownerOnly?: true;
  /** A GET that changes something (`RouteSpec.changesState`): audited for acting sessions. */
  changesState?: true;
}

export interface AuthenticatorOptions {
  db: Kysely<Database>;
  /** Looks up (and briefly remembers) who owns an API key. */
  apiKeyOwners: ApiKeyOwners;
  /** Null when no identity provider is configured: then only API keys work. */
  verifier: TokenVerifier | null;
  /** E-mail addresses that are Super Admin whatever their groups (the first admin). */
  adminEmails: readonly string[];
  /** Verifies admins' act-as tokens; without it they are refused like any unknown token. */
  actAsTokens?: ActAsTokens;
  /** Whether the user pool itself has disabled an account; without it, the pool is not asked. */
  poolStanding?: PoolStanding;
  /** Set when admins must use a second factor (`SCRUB_REQUIRE_MFA_FOR=admin`): refuses them the admin area without one. */
  mfaStanding?: MfaStanding;
  /** Told who is calling before their permission is checked (the act-as recorder). */
  onIdentified?: (request: FastifyRequest, principal: Principal, requirement: AuthRequirement) => void;
  /** Told of every refused act-as token, before the refusal is answered (the act-as recorder). */
  onActAsRefused?: (request: FastifyRequest, token: string, refusal: ApiError) => Promise<void>;
}

const unauthorized = (message: string) => new ApiError('unauthorized', message);
const BEARER = /^Bearer\s+(\S*)\s*$/i;

/** A header or query value as one string; repeated values are not one credential. */
function single(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * Works out who is calling. The precedence, documented in docs/auth.md: a bearer ID token in
 * `Authorization`; otherwise an API key in `x-api-key`; otherwise, on routes that allow it
 * (/verify and /credits), an API key in the `k` query parameter. A credential that is present is
 * used or refused; the next one is never tried in its place.
 */
export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  async authenticate(request: FastifyRequest, requirement: AuthRequirement): Promise<Principal> {
    const principal = await this.#identify(request, requirement);
    this.options.onIdentified?.(request, principal, requirement);
    if (!permits(requirement.auth, principal)) throw new ApiError('forbidden', messages.accessDenied);
    if (requirement.ownerOnly && principal.via === 'act_as')
      throw new ApiError('forbidden', messages.ownerOnly);
    // The admin area (an act-as token was issued there, so it has passed this already).
    if (requirement.auth !== 'user' && principal.via === 'token' && isAdminRole(principal.role)) {
      await this.options.mfaStanding?.assertEnrolled(principal.sub);
    }
    return principal;
  }

  async #identify(request: FastifyRequest, requirement: AuthRequirement): Promise<Principal> {
    const authorization = single(request.headers.authorization);
    if (authorization !== undefined) return this.#fromBearer(request, authorization);
    const headerKey = single(request.headers['x-api-key']);
    if (headerKey !== undefined) return this.#fromApiKey(headerKey);
    const queryKey = single((request.query as Record<string, unknown> | undefined)?.k);
    if (queryKey !== undefined) {
      if (!requirement.apiKeyInQuery) {
        throw unauthorized(
          'The k query parameter is accepted on /verify and /credits only. Send the API key in the x-api-key header.',
        );
      }
      return this.#fromApiKey(queryKey);
    }
    throw unauthorized(
      'No credentials: sign in and send "Authorization: Bearer <ID token>", or send an API key in the x-api-key header.',
    );
  }

  async #fromBearer(request: FastifyRequest, authorization: string): Promise<Principal> {
    const token = BEARER.exec(authorization)?.[1];
    if (!token) {
      throw unauthorized('The Authorization header must read "Bearer <ID token>".');
    }
    if (looksLikeApiKey(token)) {
      throw unauthorized('That is an API key: send it in the x-api-key header, not in Authorization.');
    }
    if (this.options.actAsTokens && looksLikeActAsToken(token)) {
      try {
        return await this.#fromActAs(token);
      } catch (error) {
        if (error instanceof ApiError) await this.options.onActAsRefused?.(request, token, error);
        throw error;
      }
    }
    if (!this.options.verifier) {
      throw unauthorized(
        'This service has no identity provider configured, so it cannot accept ID tokens. Use an API key.',
      );
    }
    const identity = await this.options.verifier(token);
    await this.options.poolStanding?.assertEnabled(identity.sub);
    const profile = await ensureProfile(this.options.db, {
      sub: identity.sub,
      email: identity.email,
      name: identity.name,
      role: roleOfIdentity(identity, this.options.adminEmails),
    });
    assertInGoodStanding(profile, identity.issuedAt);
    await noteSignIn(this.options.db, profile, identity.authTime);
    return {
      profileId: profile.id,
      sub: profile.sub,
      email: profile.email,
      role: profile.role,
      via: 'token',
    };
  }

  /**
   * An admin (or an Agency) acting as a user: both accounts must be in good standing, and the
   * admin still an admin (the Agency still an Agency, the user still its client), at every request
   * (a token outlives neither a disable nor a demotion).
   */
  async #fromActAs(token: string): Promise<Principal> {
    const claims = await (this.options.actAsTokens as ActAsTokens).verify(token);
    const [user, admin] = await Promise.all([
      this.options.db.selectFrom('profiles').selectAll().where('id', '=', claims.userId).executeTakeFirst(),
      this.options.db.selectFrom('profiles').selectAll().where('id', '=', claims.adminId).executeTakeFirst(),
    ]);
    if (!user || !admin) throw unauthorized('The act-as token names an account that does not exist.');
    assertInGoodStanding(admin, claims.issuedAt);
    if (!mayActAs(admin, user)) throw new ApiError('forbidden', messages.accessDenied);
    assertInGoodStanding(user, claims.issuedAt);
    await this.options.poolStanding?.assertEnabled(admin.sub);
    await this.options.poolStanding?.assertEnabled(user.sub);
    return {
      profileId: user.id,
      sub: user.sub,
      email: user.email,
      role: user.role,
      via: 'act_as',
      actor: { profileId: admin.id, email: admin.email },
    };
  }

  async #fromApiKey(key: string): Promise<Principal> {
    if (!looksLikeApiKey(key)) {
      throw new ApiError(
        'invalid_api_key',
        'The API key is malformed: Scrub API keys are "scrub_" followed by 40 letters and digits.',
      );
    }
    const owner = await this.options.apiKeyOwners.find(key);
    if (!owner) {
      throw new ApiError(
        'invalid_api_key',
        'The API key is not valid: it was never issued or has been replaced by a newer key.',
      );
    }
    assertInGoodStanding(owner);
    await this.options.poolStanding?.assertEnabled(owner.sub);
    return {
      profileId: owner.id,
      sub: owner.sub,
      email: owner.email,
      role: owner.role,
      via: 'api_key',
      apiKeyId: owner.key_id,
    };
  }
}

/** The ID-token verifier the settings ask for: Amazon Cognito when a user pool is configured. */
export function verifierFromConfig(config: ServerConfig): TokenVerifier | null {
  if (!config.cognito) return null;
  const issuer = cognitoIssuer(config.cognito.region, config.cognito.userPoolId);
  return createTokenVerifier({
    issuer,
    audience: config.cognito.clientId,
    jwks: new URL(`${issuer}/.well-known/jwks.json`),
  });
}
