import type { Kysely, Selectable } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Database, MailOutboxTable } from '../storage/schema.js';

/**
 * What the service sends: verification codes, file-ready notices, files a customer mails from
 * Export, purchase receipts and refunds, Contact page messages to the operator, and warnings to
 * admins of do-not-call lists about to go stale.
 */
export type MailKind =
  | 'confirm_sign_up'
  | 'reset_password'
  | 'file_ready'
  | 'file_shared'
  | 'receipt'
  | 'refund'
  | 'contact'
  /** To admins: a do-not-call list goes stale soon (reference-data/dnc-age-alerts.ts). */
  | 'dnc_list_age'
  /** To admins: a file dropped in the registry inbox could not be imported (registry-inbox/). */
  | 'dnc_inbox_rejected'
  /** To a customer: auto top-up's card was declined, so it stopped (payments/auto-top-ups.ts). */
  | 'auto_top_up_declined'
  /** To a customer: the balance fell below the threshold they set (payments/balance-mail.ts). */
  | 'low_balance';

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * A secret the mail carries (a verification or reset code): never logged, and kept in the outbox
   * only when the outbox is the delivery (no SMTP, the embedded setup); once mail really leaves,
   * the outbox keeps the mail with the secret replaced.
   */
  secret?: string;
}

/** What the outbox keeps in place of a secret once mail goes out through SMTP. */
export const SECRET_WITHHELD = '[code sent by e-mail; not kept]';

/** The mail with its secret replaced wherever it appears. */
export function withoutSecret(mail: OutgoingMail, replacement = SECRET_WITHHELD): OutgoingMail {
  const { secret, ...rest } = mail;
  if (!secret) return rest;
  const hide = (text: string) => text.replaceAll(secret, replacement);
  return {
    ...rest,
    subject: hide(mail.subject),
    text: hide(mail.text),
    ...(mail.html !== undefined ? { html: hide(mail.html) } : {}),
  };
}

export type StoredMail = Selectable<MailOutboxTable>;

export interface MailerOptions {
  db: Kysely<Database>;
  logger: Logger | false;
  from: string;
  /** `smtp://user:pass@host:587` or `smtps://...`; null keeps mail in the outbox only. */
  smtpUrl: string | null;
}

/**
 * Every e-mail goes through here: it is stored in `mail_outbox` first (so `scrub-server mail`
 * shows it whatever happens next), logged, then handed to SMTP when one is configured. Delivery
 * runs after the caller has its answer, as with Cognito, so a slow mail server never holds up a
 * sign-up; `idle()` waits for deliveries in flight.
 */
export class Mailer {
  /** Loaded only when SMTP is configured: nodemailer costs the process about 30 MB. */
  readonly #transport: Promise<Transporter> | null;
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly options: MailerOptions) {
    const { smtpUrl } = options;
    this.#transport = smtpUrl
      ? import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl))
      : null;
    // A failed load surfaces as each delivery's error, never as an unhandled rejection.
    this.#transport?.catch(() => undefined);
  }

  async send(mail: OutgoingMail): Promise<StoredMail> {
    // With SMTP the outbox is a record, not the delivery: it keeps no code (nor does the database's write-ahead log).
    const kept = this.#transport ? withoutSecret(mail) : mail;
    const stored = await this.options.db
      .insertInto('mail_outbox')
      .values({
        kind: mail.kind,
        to_address: mail.to,
        from_address: this.options.from,
        subject: kept.subject,
        text_body: kept.text,
        html_body: kept.html ?? null,
        delivery: this.#transport ? 'sending' : 'stored',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const { logger } = this.options;
    if (this.#transport) {
      // Codes are secrets once mail really leaves: log who and what kind, not the subject.
      if (logger)
        logger.info({ mail: { id: stored.id, kind: mail.kind, to: mail.to } }, 'mail queued for SMTP');
      const delivery = this.#deliver(this.#transport, stored, mail).finally(() =>
        this.#pending.delete(delivery),
      );
      this.#pending.add(delivery);
    } else if (logger) {
      logger.info(
        { mail: { id: stored.id, kind: mail.kind, to: mail.to } },
        `mail stored in the outbox: "${withoutSecret(mail, '[code in the outbox]').subject}" (read it with: scrub-server mail --to ${mail.to} --last)`,
      );
    }
    return stored;
  }

  /** Sends the mail itself (`original`, with its code), and records the outcome on the stored copy. */
  async #deliver(transport: Promise<Transporter>, mail: StoredMail, original: OutgoingMail): Promise<void> {
    const { db, logger } = this.options;
    try {
      await (await transport).sendMail({
        from: mail.from_address,
        to: mail.to_address,
        subject: original.subject,
        text: original.text,
        ...(original.html ? { html: original.html } : {}),
      });
      await db
        .updateTable('mail_outbox')
        .set({ delivery: 'sent', sent_at: new Date() })
        .where('id', '=', mail.id)
        .execute();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (logger)
        logger.error({ mail: { id: mail.id, to: mail.to_address }, err: error }, 'mail delivery failed');
      await db
        .updateTable('mail_outbox')
        .set({ delivery: 'failed', delivery_error: message.slice(0, 1000) })
        .where('id', '=', mail.id)
        .execute()
        .catch(() => undefined);
    }
  }

  /** Resolves once every delivery started so far has finished (sent or failed). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async close(): Promise<void> {
    await this.idle();
    (await this.#transport?.catch(() => null))?.close();
  }
}

export interface OutboxQuery {
  to?: string;
  /** Newest first, at most this many; the answer is oldest first. */
  limit: number;
}

/** Mail from the outbox, oldest first: every mail, or the newest `limit` to one address. */
export async function readOutbox(db: Kysely<Database>, query: OutboxQuery): Promise<StoredMail[]> {
  let select = db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(query.limit);
  if (query.to) {
    const to = query.to.trim().toLowerCase();
    select = select.where((eb) => eb(eb.fn('lower', ['to_address']), '=', to));
  }
  return (await select.execute()).reverse();
}
