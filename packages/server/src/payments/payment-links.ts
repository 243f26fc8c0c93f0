import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { Database, PaymentLinksTable } from '../storage/schema.js';

/** Long enough to type a card number or answer the bank, short enough that a leaked link dies soon. */
export const PAYMENT_LINK_TTL_SECONDS = 15 * 60;
/** A save still holding its claim after this long has crashed: the link may be claimed again. */
const CLAIM_LAPSES_SECONDS = 2 * 60;

type Purpose = PaymentLinksTable['purpose'];

export interface PaymentLinkGrant {
  profileId: string;
  purpose: Purpose;
  paymentIntentId: string | null;
  expiresAt: Date;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Single-use links a browser without a session opens: add a card to one account (`/card?grant=`),
 * or confirm one payment (`/authenticate?grant=`). The token is 32 random bytes and only its hash
 * is stored, so the table cannot be turned into working links. A link opens nothing else: the
 * routes that take one read the account from it and do that one thing.
 */
export class PaymentLinks {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly publicUrl: () => string,
  ) {}

  async issue(profileId: string, purpose: Purpose, paymentIntentId: string | null = null) {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + PAYMENT_LINK_TTL_SECONDS * 1000);
    await this.db
      .deleteFrom('payment_links')
      .where('expires_at', '<', new Date(Date.now() - 24 * 3600 * 1000))
      .execute();
    await this.db
      .insertInto('payment_links')
      .values({
        token_hash: hashOf(token),
        profile_id: profileId,
        purpose,
        payment_intent_id: paymentIntentId,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    const page = purpose === 'add_card' ? 'card' : 'authenticate';
    return { url: `${this.publicUrl()}/${page}?grant=${token}`, expires_at: expiresAt.toISOString() };
  }

  /** The link's grant if it is live and for this purpose; otherwise a 401 or 410 saying why. */
  async check(token: string, purpose?: Purpose): Promise<PaymentLinkGrant> {
    const row = await this.db
      .selectFrom('payment_links')
      .selectAll()
      .where('token_hash', '=', hashOf(token))
      .executeTakeFirst();
    if (!row || (purpose && row.purpose !== purpose)) {
      throw new ApiError(
        'payment_link_invalid',
        'This payment link is not valid: copy the whole link, or ask for a new one.',
      );
    }
    const another =
      row.purpose === 'add_card'
        ? 'Ask for a new one (scrub card add).'
        : 'Nothing was charged: buy again for a new one.';
    if (row.used_at) {
      throw new ApiError(
        'payment_link_expired',
        `This payment link was already used: each link works once. ${another}`,
      );
    }
    if (row.expires_at.getTime() <= Date.now()) {
      throw new ApiError(
        'payment_link_expired',
        `This payment link expired (links work for ${PAYMENT_LINK_TTL_SECONDS / 60} minutes). ${another}`,
      );
    }
    return {
      profileId: row.profile_id,
      purpose: row.purpose,
      paymentIntentId: row.payment_intent_id,
      expiresAt: row.expires_at,
    };
  }

  /** Whether this account was sent to confirm this payment (so it may ask where the payment stands). */
  async hasPayment(profileId: string, paymentIntentId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('payment_links')
      .select('token_hash')
      .where('profile_id', '=', profileId)
      .where('payment_intent_id', '=', paymentIntentId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes the card link for one save, atomically: of two saves at the same moment one goes on and
   * the other is refused, 410 when the link was used meanwhile, otherwise 409 (a save is running).
   * `release` gives it back when that save is refused; `use` spends it when the card is saved.
   */
  async claim(token: string): Promise<void> {
    const stale = new Date(Date.now() - CLAIM_LAPSES_SECONDS * 1000);
    const claimed = await this.db
      .updateTable('payment_links')
      .set({ claimed_at: new Date() })
      .where('token_hash', '=', hashOf(token))
      .where('used_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', stale)]))
      .returning('token_hash')
      .executeTakeFirst();
    if (claimed) return;
    await this.check(token, 'add_card');
    throw new ApiError(
      'conflict',
      'A card is being saved with this link right now: each link saves one card. Wait for that save to finish (reload the page), or ask for a new link (scrub card add).',
    );
  }

  /** Gives a claimed link back when its save was refused, for the retry. */
  async release(token: string): Promise<void> {
    await this.db
      .updateTable('payment_links')
      .set({ claimed_at: null })
      .where('token_hash', '=', hashOf(token))
      .where('used_at', 'is', null)
      .execute();
  }

  /** Marks the link used; false when another request used it first. */
  async use(token: string): Promise<boolean> {
    const used = await this.db
      .updateTable('payment_links')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hashOf(token))
      .where('used_at', 'is', null)
      .returning('token_hash')
      .executeTakeFirst();
    return used !== undefined;
  }
}
