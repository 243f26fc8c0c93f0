import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { type PoolContext, sha256 } from './pool-context.js';

/** RFC 6238 as authenticator apps and Cognito use it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code from the step before or after is accepted too: phones' clocks drift. */
const WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;
/** `abcde-fghij`: 50 bits each, from the base32 alphabet (no 0/1/8/9 to misread). */
const RECOVERY_CODE = /^[a-z2-7]{5}-?[a-z2-7]{5}$/;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export interface SoftwareTokenState {
  /** A verified secret exists. */
  verified: boolean;
  /** Sign-in asks for a code. */
  enabled: boolean;
}

/**
 * Each user's authenticator app and recovery codes, in SQL. TOTP itself is `otpauth`'s (a kept,
 * audited implementation of RFC 4226/6238) rather than HMAC code written here: the truncation and
 * counter encoding are where hand-written versions go wrong, and the same library computes codes
 * in the tests and the dashboard's browser test.
 */
export class SoftwareTokens {
  readonly #pool: PoolContext;

  constructor(pool: PoolContext) {
    this.#pool = pool;
  }

  async state(sub: string): Promise<SoftwareTokenState> {
    const row = await this.#pool.db
      .selectFrom('identity_software_tokens')
      .select(['secret', 'enabled'])
      .where('user_sub', '=', sub)
      .executeTakeFirst();
    return { verified: Boolean(row?.secret), enabled: Boolean(row?.secret && row.enabled) };
  }

  /** A new secret to enrol (the verified one, if any, keeps working until this one is verified). */
  async associate(sub: string): Promise<string> {
    const secret = new Secret({ size: 20 }).base32;
    await this.#pool.db
      .insertInto('identity_software_tokens')
      .values({ user_sub: sub, pending_secret: secret })
      .onConflict((oc) =>
        oc.column('user_sub').doUpdateSet({ pending_secret: secret, updated_at: this.#pool.now() }),
      )
      .execute();
    return secret;
  }

  /**
   * Checks a code against the pending secret; if it matches, that secret becomes the user's.
   * `enable` turns sign-in codes on at once (enrolment during sign-in, as Cognito does).
   */
  async verifyPending(
    sub: string,
    code: string,
    options: { friendlyName: string | null; enable: boolean },
  ): Promise<boolean> {
    const row = await this.#pool.db
      .selectFrom('identity_software_tokens')
      .select(['pending_secret'])
      .where('user_sub', '=', sub)
      .executeTakeFirst();
    const step = row?.pending_secret ? this.#matchingStep(row.pending_secret, code) : null;
    if (step === null || !row?.pending_secret) return false;
    await this.#pool.db
      .updateTable('identity_software_tokens')
      .set({
        secret: row.pending_secret,
        pending_secret: null,
        friendly_name: options.friendlyName,
        last_used_step: step,
        ...(options.enable ? { enabled: true } : {}),
        updated_at: this.#pool.now(),
      })
      .where('user_sub', '=', sub)
      .execute();
    return true;
  }

  /** Turns sign-in codes on or off; false when there is no verified secret to turn on. */
  async setEnabled(sub: string, enabled: boolean): Promise<boolean> {
    const updated = await this.#pool.db
      .updateTable('identity_software_tokens')
      .set({ enabled, updated_at: this.#pool.now() })
      .where('user_sub', '=', sub)
      .where('secret', 'is not', null)
      .executeTakeFirst();
    return enabled ? updated.numUpdatedRows > 0n : true;
  }

  /** Forgets the authenticator and the recovery codes (an admin's reset). */
  async remove(sub: string): Promise<void> {
    await this.#pool.db.deleteFrom('identity_software_tokens').where('user_sub', '=', sub).execute();
    await this.#pool.db.deleteFrom('identity_recovery_codes').where('user_sub', '=', sub).execute();
  }

  /**
   * A sign-in code: the authenticator's current code (once per step: a seen code is refused), or
   * an unused recovery code, which is then used up.
   */
  async acceptSignInCode(sub: string, code: string): Promise<boolean> {
    const typed = code.trim().toLowerCase();
    if (RECOVERY_CODE.test(typed)) return this.#useRecoveryCode(sub, typed.replace('-', ''));
    const row = await this.#pool.db
      .selectFrom('identity_software_tokens')
      .select(['secret', 'last_used_step'])
      .where('user_sub', '=', sub)
      .executeTakeFirst();
    const step = row?.secret ? this.#matchingStep(row.secret, typed) : null;
    if (step === null) return false;
    // Claimed in the same statement that checks it: two requests with one code cannot both pass.
    const claimed = await this.#pool.db
      .updateTable('identity_software_tokens')
      .set({ last_used_step: step })
      .where('user_sub', '=', sub)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(step))]))
      .executeTakeFirst();
    return claimed.numUpdatedRows > 0n;
  }

  /** A fresh set of recovery codes, replacing any earlier set. Only their hashes are kept. */
  async newRecoveryCodes(sub: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const chars = [...randomBytes(10)].map((byte) => BASE32[byte & 31]).join('');
      return `${chars.slice(0, 5)}-${chars.slice(5)}`;
    });
    await this.#pool.db.deleteFrom('identity_recovery_codes').where('user_sub', '=', sub).execute();
    await this.#pool.db
      .insertInto('identity_recovery_codes')
      .values(
        codes.map((code) => ({ user_sub: sub, code_hash: sha256(code.replace('-', '')), used_at: null })),
      )
      .execute();
    return codes;
  }

  /** Recovery codes not yet used. */
  async recoveryCodesLeft(sub: string): Promise<number> {
    const row = await this.#pool.db
      .selectFrom('identity_recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_sub', '=', sub)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async #useRecoveryCode(sub: string, code: string): Promise<boolean> {
    const used = await this.#pool.db
      .updateTable('identity_recovery_codes')
      .set({ used_at: this.#pool.now() })
      .where('user_sub', '=', sub)
      .where('code_hash', '=', sha256(code))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return used.numUpdatedRows > 0n;
  }

  /** The time step whose code this is, or null. */
  #matchingStep(secret: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const totp = new TOTP({
      secret: Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: DIGITS,
      period: PERIOD_SECONDS,
    });
    const timestamp = this.#pool.now().getTime();
    const delta = totp.validate({ token: code, timestamp, window: WINDOW });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }
}
