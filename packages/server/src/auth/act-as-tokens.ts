import { randomBytes, randomUUID } from 'node:crypto';
import { compactVerify, decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';

const ISSUER = 'scrub:act-as';
const SECRET_NAME = 'act_as_signing_key';
/** Long enough to look into an account, short enough that a forgotten token dies soon. */
export const ACT_AS_TTL_SECONDS = 15 * 60;

export interface ActAsClaims {
  /** The profile acted as. */
  userId: string;
  adminId: string;
  adminEmail: string;
  issuedAt: number;
}

/** True for a token of ours rather than the identity provider's (read unverified, only to route it). */
export function looksLikeActAsToken(token: string): boolean {
  try {
    return decodeJwt(token).iss === ISSUER;
  } catch {
    return false;
  }
}

/**
 * Act-as tokens: JWTs signed HS256 with a key kept in the database, so every server process of a
 * deployment accepts them, and the identity provider (Cognito included) has nothing to mint. The
 * `act` claim names the admin (RFC 8693); `sub` is the profile acted as.
 */
export class ActAsTokens {
  #key: Promise<Uint8Array> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  async issue(input: { userId: string; adminId: string; adminEmail: string }) {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      token_use: 'act_as',
      act: { sub: input.adminId, email: input.adminEmail },
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(input.userId)
      .setIssuedAt(now)
      .setExpirationTime(now + ACT_AS_TTL_SECONDS)
      .setJti(randomUUID())
      .sign(await this.#signingKey());
    return { token, expiresAt: new Date((now + ACT_AS_TTL_SECONDS) * 1000) };
  }

  async verify(token: string): Promise<ActAsClaims> {
    try {
      const { payload } = await jwtVerify(token, await this.#signingKey(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      if ((payload.iat as number) > Date.now() / 1000 + 5) {
        throw new ApiError(
          'unauthorized',
          'The act-as token is not valid yet: it says it was issued in the future.',
        );
      }
      const act = payload.act as { sub?: unknown; email?: unknown } | undefined;
      if (payload.token_use !== 'act_as' || typeof act?.sub !== 'string' || typeof act.email !== 'string') {
        throw new ApiError('unauthorized', 'The act-as token is malformed.');
      }
      return {
        userId: payload.sub as string,
        adminId: act.sub,
        adminEmail: act.email,
        issuedAt: payload.iat as number,
      };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof errors.JWTExpired) {
        throw new ApiError('token_expired', 'The act-as token has expired. Ask for a new one.');
      }
      throw new ApiError('unauthorized', 'The act-as token cannot be verified.');
    }
  }

  /**
   * What a token this service signed says, whatever else is wrong with it (expired, not valid
   * yet...): who issued it, whom it acts as, its id. Null when the signature does not verify: a
   * forged or garbled token says nothing anyone can trust.
   */
  async signedClaims(
    token: string,
  ): Promise<{ userId: string; adminId: string; adminEmail: string; tokenId: string } | null> {
    try {
      const { payload } = await compactVerify(token, await this.#signingKey(), { algorithms: ['HS256'] });
      const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
      const act = claims.act as { sub?: unknown; email?: unknown } | undefined;
      if (typeof claims.sub !== 'string' || typeof act?.sub !== 'string' || typeof act.email !== 'string')
        return null;
      return {
        userId: claims.sub,
        adminId: act.sub,
        adminEmail: act.email,
        tokenId: typeof claims.jti === 'string' ? claims.jti : token.slice(-16),
      };
    } catch {
      return null;
    }
  }

  #signingKey(): Promise<Uint8Array> {
    this.#key ??= this.#loadKey().catch((error: unknown) => {
      this.#key = null;
      throw error;
    });
    return this.#key;
  }

  /** Concurrent first uses (or processes) insert at most one key; all then read the winner. */
  async #loadKey(): Promise<Uint8Array> {
    await this.db
      .insertInto('service_secrets')
      .values({ name: SECRET_NAME, secret: randomBytes(32).toString('base64') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('service_secrets')
      .select('secret')
      .where('name', '=', SECRET_NAME)
      .executeTakeFirstOrThrow();
    return new Uint8Array(Buffer.from(row.secret, 'base64'));
  }
}
