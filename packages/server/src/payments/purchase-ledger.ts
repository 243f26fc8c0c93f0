import type { PurchaseHistoryQuerySchema, PurchaseSchema } from '@scrub/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { applyLedgerEntry } from '../account/ledger.js';
import type { Database, LedgerKind } from '../storage/schema.js';

export interface PurchaseGrant {
  profileId: string;
  kind: 'intro' | 'purchase' | 'subscription';
  planReference: string;
  planName: string;
  amountCents: number;
  credits: number;
  bonusCredits: number;
  /** Unlimited plans: how long the pass runs (null: while the subscription lasts). */
  unlimited: { days: number | null } | null;
  /** The payment intent or invoice that paid. */
  providerObjectId: string;
  /** Bought by auto top-up: its ledger entries' notes start "Auto top-up". */
  autoTopUp?: boolean;
}

export interface RecordedPurchase {
  purchaseId: string;
  /** False when this provider object was already recorded (a retry, a redelivered webhook). */
  created: boolean;
}

const creditKind: Record<PurchaseGrant['kind'], LedgerKind> = {
  intro: 'purchase',
  purchase: 'purchase',
  subscription: 'subscription_grant',
};

/**
 * Records a paid purchase and its credits in one transaction, once per provider object: the row's
 * unique provider id decides, so the route that saw the payment and the webhook that reports it
 * can both call this and the credits land once. Each credit change is a ledger entry naming it.
 */
export async function recordPurchase(db: Kysely<Database>, grant: PurchaseGrant): Promise<RecordedPurchase> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('purchases')
      .values({
        profile_id: grant.profileId,
        kind: grant.kind,
        plan_reference: grant.planReference,
        plan_name: grant.planName,
        amount_cents: grant.amountCents,
        credits: grant.credits,
        bonus_credits: grant.bonusCredits,
        provider_object_id: grant.providerObjectId,
      })
      .onConflict((oc) => oc.column('provider_object_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await trx
        .selectFrom('purchases')
        .select('id')
        .where('provider_object_id', '=', grant.providerObjectId)
        .executeTakeFirstOrThrow();
      return { purchaseId: existing.id, created: false };
    }
    const note = `${grant.autoTopUp ? 'Auto top-up: ' : ''}${grant.planName} ($${(grant.amountCents / 100).toFixed(2)})`;
    const reference = grant.providerObjectId;
    if (grant.credits > 0) {
      await applyLedgerEntry(trx, {
        profileId: grant.profileId,
        delta: grant.credits,
        kind: creditKind[grant.kind],
        reference,
        note,
      });
    }
    if (grant.bonusCredits > 0) {
      await applyLedgerEntry(trx, {
        profileId: grant.profileId,
        delta: grant.bonusCredits,
        kind: 'bonus',
        reference,
        note: `${note}: bonus`,
      });
    }
    if (grant.kind === 'subscription' || grant.unlimited) {
      const days = grant.unlimited?.days ?? null;
      await trx
        .updateTable('profiles')
        .set({
          plan_reference: grant.planReference,
          // A pass bought while one runs extends it rather than starting over.
          plan_expires_at:
            days === null
              ? null
              : sql<Date>`greatest(coalesce(plan_expires_at, now()), now()) + make_interval(days => ${days})`,
          updated_at: new Date(),
        })
        .where('id', '=', grant.profileId)
        .execute();
    }
    return { purchaseId: inserted.id, created: true };
  });
}

export async function hasTakenIntro(db: Kysely<Database>, profileId: string): Promise<boolean> {
  const row = await db
    .selectFrom('purchases')
    .select('id')
    .where('profile_id', '=', profileId)
    .where('kind', '=', 'intro')
    .executeTakeFirst();
  return row !== undefined;
}

/** Purchase history, newest first, optionally of one year or one month of a year (UTC). */
export async function listPurchases(
  db: Kysely<Database>,
  profileId: string,
  query: z.output<typeof PurchaseHistoryQuerySchema>,
): Promise<z.input<typeof PurchaseSchema>[]> {
  let select = db
    .selectFrom('purchases')
    .selectAll()
    .where('profile_id', '=', profileId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(query.per_page);
  if (query.year !== undefined) {
    const from = new Date(Date.UTC(query.year, (query.month ?? 1) - 1, 1));
    const to =
      query.month === undefined
        ? new Date(Date.UTC(query.year + 1, 0, 1))
        : new Date(Date.UTC(query.year, query.month, 1));
    select = select.where('created_at', '>=', from).where('created_at', '<', to);
  }
  const rows = await select.execute();
  return rows.map((row) => ({
    purchase_id: row.id,
    plan_reference: row.plan_reference,
    plan_name: row.plan_name,
    purchase_date: row.created_at.toISOString(),
    purchase_amount: row.amount_cents / 100,
    credits_added: row.credits + row.bonus_credits,
    refunded_amount: row.refunded_cents / 100,
  }));
}
