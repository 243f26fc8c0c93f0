import { randomBytes } from 'node:crypto';
import { CognitoError } from './errors.js';
import { notAuthorized, type PoolContext, sha256 } from './pool-context.js';

export type MfaChallengeName = 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP';

/** Cognito's answer when the password checked out and a second step is due. */
export interface MfaChallenge {
  ChallengeName: MfaChallengeName;
  Session: string;
  ChallengeParameters: Record<string, string>;
}

/** How long a sign-in may wait for its code, as Cognito's default session (3 minutes). */
const CHALLENGE_TTL_SECONDS = 180;
/** Enrolment (scan a QR code, type a code) takes longer. */
const SETUP_TTL_SECONDS = 600;

/**
 * Sign-ins waiting for their second factor. The client holds the session string; the pool keeps
 * its hash, the user and the app client. A session ends when answered, expired, or after
 * `maxCodeAttempts` wrong codes (then only the password again starts a new one).
 */
export class MfaChallenges {
  readonly #pool: PoolContext;

  constructor(pool: PoolContext) {
    this.#pool = pool;
  }

  async start(sub: string, clientId: string, kind: MfaChallengeName): Promise<MfaChallenge> {
    const session = randomBytes(48).toString('base64url');
    const now = this.#pool.now();
    const ttl = kind === 'MFA_SETUP' ? SETUP_TTL_SECONDS : CHALLENGE_TTL_SECONDS;
    await this.#pool.db.deleteFrom('identity_mfa_challenges').where('expires_at', '<', now).execute();
    await this.#pool.db
      .insertInto('identity_mfa_challenges')
      .values({
        session_hash: sha256(session),
        user_sub: sub,
        client_id: clientId,
        kind,
        expires_at: new Date(now.getTime() + ttl * 1000),
        used_at: null,
      })
      .execute();
    return {
      ChallengeName: kind,
      Session: session,
      ChallengeParameters: kind === 'MFA_SETUP' ? { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } : {},
    };
  }

  /** The user a live session belongs to; `clientId` is checked when the call names one. */
  async userOf(session: string | undefined, kind: MfaChallengeName, clientId?: string): Promise<string> {
    const row = await this.#pool.db
      .selectFrom('identity_mfa_challenges')
      .selectAll()
      .where('session_hash', '=', sha256(session ?? ''))
      .executeTakeFirst();
    if (!row || row.kind !== kind || (clientId !== undefined && row.client_id !== clientId)) {
      throw notAuthorized('Invalid session for the user.');
    }
    if (row.used_at) throw notAuthorized('Invalid session for the user, session can only be used once.');
    if (row.expires_at <= this.#pool.now())
      throw notAuthorized('Invalid session for the user, session is expired.');
    if (row.failed_attempts >= this.#pool.tuning.maxCodeAttempts) {
      throw notAuthorized('Too many invalid codes: sign in again.');
    }
    return row.user_sub;
  }

  /** Ends the session: it was answered. False if another request answered it first. */
  async finish(session: string | undefined): Promise<boolean> {
    const used = await this.#pool.db
      .updateTable('identity_mfa_challenges')
      .set({ used_at: this.#pool.now() })
      .where('session_hash', '=', sha256(session ?? ''))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return used.numUpdatedRows > 0n;
  }

  /** A wrong code: counted, then Cognito's CodeMismatchException. */
  async wrongCode(session: string | undefined): Promise<never> {
    await this.#pool.db
      .updateTable('identity_mfa_challenges')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('session_hash', '=', sha256(session ?? ''))
      .execute();
    throw new CognitoError('CodeMismatchException', 'Invalid code or auth state for the user.');
  }
}
