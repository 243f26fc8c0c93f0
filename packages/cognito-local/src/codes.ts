import { randomInt, timingSafeEqual } from 'node:crypto';
import { type CodeMailer, type CodePurpose, codeMail } from './code-mail.js';
import { CognitoError, cognitoMessages as m } from './errors.js';
import type { PoolContext } from './pool-context.js';
import type { Throttles } from './throttles.js';
import { EMAIL, type UserRow } from './user-store.js';

export interface CodeDeliveryDetails {
  Destination: string;
  DeliveryMedium: 'EMAIL';
  AttributeName: 'email';
}

/** `j***@e***.com`: enough for a person to recognise their address, not enough to learn one. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***${tld}`;
}

/** The 6-digit codes e-mailed to confirm a sign-up or reset a password: sent, throttled, spent once. */
export class Codes {
  readonly #pool: PoolContext;
  readonly #mailer: CodeMailer;
  readonly #throttles: Throttles;

  constructor(pool: PoolContext, mailer: CodeMailer, throttles: Throttles) {
    this.#pool = pool;
    this.#mailer = mailer;
    this.#throttles = throttles;
  }

  async send(user: UserRow, purpose: CodePurpose): Promise<CodeDeliveryDetails> {
    await this.#throttles.countCodeSend(user.sub);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const { tuning } = this.#pool;
    const ttl = purpose === 'confirm_sign_up' ? tuning.signUpCodeTtlSeconds : tuning.resetCodeTtlSeconds;
    const expiresAt = new Date(this.#pool.now().getTime() + ttl * 1000);
    const row = {
      code_hash: this.#hash(user.sub, purpose, code),
      failed_attempts: 0,
      expires_at: expiresAt,
    };
    // A new code replaces the previous one of the same purpose.
    await this.#pool.db
      .insertInto('identity_codes')
      .values({ user_sub: user.sub, purpose, ...row })
      .onConflict((oc) => oc.columns(['user_sub', 'purpose']).doUpdateSet(row))
      .execute();
    await this.#mailer.send(codeMail(purpose, user.email, user.attributes.name, code, ttl));
    return { Destination: maskEmail(user.email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
  }

  /** Checks and spends a code: each works once, until it expires, for a few wrong tries. */
  async use(user: UserRow, purpose: CodePurpose, code: string): Promise<void> {
    const { db } = this.#pool;
    const row = await db
      .selectFrom('identity_codes')
      .selectAll()
      .where('user_sub', '=', user.sub)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.expires_at <= this.#pool.now())
      throw new CognitoError('ExpiredCodeException', m.codeExpired);
    if (row.failed_attempts >= this.#pool.tuning.maxCodeAttempts) {
      throw new CognitoError('LimitExceededException', m.codeAttemptsExceeded);
    }
    const given = Buffer.from(this.#hash(user.sub, purpose, code));
    if (!timingSafeEqual(given, Buffer.from(row.code_hash))) {
      await db
        .updateTable('identity_codes')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('user_sub', '=', user.sub)
        .where('purpose', '=', purpose)
        .execute();
      throw new CognitoError('CodeMismatchException', m.codeMismatch);
    }
    const spent = await db
      .deleteFrom('identity_codes')
      .where('user_sub', '=', user.sub)
      .where('purpose', '=', purpose)
      .where('code_hash', '=', row.code_hash)
      .returning('user_sub')
      .executeTakeFirst();
    // Two requests with the same code: only the first one wins.
    if (!spent) throw new CognitoError('ExpiredCodeException', m.codeExpired);
  }

  /** The answer for a user who gets no mail (unknown, disabled): the same shape as a real delivery. */
  simulatedDelivery(username: string): CodeDeliveryDetails {
    const email = EMAIL.test(username.trim()) ? username.trim() : `${username}@example.com`;
    return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
  }

  #hash(sub: string, purpose: CodePurpose, code: string): string {
    return this.#pool.derive(`code:${purpose}:${sub}:${code}`).toString('hex');
  }
}
