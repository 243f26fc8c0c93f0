import { UNLIMITED_PLAN_REFERENCES } from '@scrub/contract';
import { type Kysely, sql } from 'kysely';
import { insufficientCredits } from '../account/ledger.js';
import { planPausedError } from '../account/plan-status.js';
import { hasUnlimited } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import { countCredits } from '../metrics/service-metrics.js';
import type { Database } from '../storage/schema.js';

/** What one check paid: nothing for unlimited holders, else its cost and the balance after it. */
export type CheckCharge = { unlimited: true } | { unlimited: false; deducted: number; remaining: number };

interface PendingCharge {
  profileId: string;
  /**
   * 1 for a check (more with a reassigned-number answer); 0 for an answer already paid for (a
   * cached repeat), which only reads the balance.
   */
  cost: number;
  /** The number checked, kept on the ledger entry. */
  reference: string;
  resolve(charge: CheckCharge): void;
  reject(error: unknown): void;
}

/** Rows of one multi-row insert stay far below PostgreSQL's 65,535 bind parameters. */
const MAX_BATCH = 1000;

/**
 * Charges single checks with group commit: while one transaction runs, the charges that arrive
 * queue up, and the next transaction takes them all at once (one lock per account, one balance
 * update, one multi-row insert of ledger entries). Under load a transaction carries hundreds of
 * checks instead of one, and the ledger stays exact: each check is its own entry, in order,
 * with the balance after it, and a check the balance cannot cover is refused, never half-charged.
 */
export class CheckCharger {
  #queue: PendingCharge[] = [];
  #running: Promise<void> | null = null;

  /** `charged` is told of each account whose balance a charge moved, after it commits. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly charged: (profileId: string) => void = () => {},
  ) {}

  charge(profileId: string, cost: number, reference: string): Promise<CheckCharge> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ profileId, cost, reference, resolve, reject });
      this.#running ??= this.#drain();
    });
  }

  /**
   * Charges a batch of checks (`POST /verify`) at once, in one transaction: `cost` credits as one
   * ledger entry, or nothing at all. A balance that covers fewer than `cost` refuses the whole
   * batch with a 402 whose details say how many checks it could pay for (`affordable`). A paused
   * plan is refused, and an unlimited one pays nothing, as for single checks.
   */
  async chargeBatch(profileId: string, cost: number, reference: string): Promise<CheckCharge> {
    const charge = await this.db.transaction().execute(async (trx): Promise<CheckCharge> => {
      const profile = await trx
        .selectFrom('profiles')
        .select(['id', 'credits', 'plan_reference', 'plan_status', 'plan_expires_at'])
        .where('id', '=', profileId)
        .forUpdate()
        .executeTakeFirst();
      if (!profile) throw new ApiError('not_found', 'No such account.');
      if (profile.plan_status === 'paused') throw planPausedError();
      const now = new Date();
      if (hasUnlimited(profile, now)) return { unlimited: true };
      if (profile.credits < cost) {
        throw new ApiError(
          'insufficient_credits',
          `Not enough credits: this batch needs ${cost} and the account has ${profile.credits}, enough for ${profile.credits} of its numbers. Nothing was charged: send at most that many new numbers, or buy credits.`,
          {
            credits_required: cost,
            credits_available: profile.credits,
            affordable: profile.credits,
            required: cost,
          },
        );
      }
      const balance = profile.credits - cost;
      if (cost > 0) {
        await trx
          .updateTable('profiles')
          .set({ credits: balance, updated_at: now })
          .where('id', '=', profileId)
          .execute();
        await trx
          .insertInto('credit_ledger')
          .values({ profile_id: profileId, delta: -cost, balance_after: balance, kind: 'check', reference })
          .execute();
      }
      return { unlimited: false, deducted: cost, remaining: balance };
    });
    if (!charge.unlimited) countCredits('check', -charge.deducted);
    if (!charge.unlimited && charge.deducted > 0) this.charged(profileId);
    return charge;
  }

  /** Resolves once every charge queued so far is settled (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    // Let the charges of requests already being handled join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      try {
        await this.#commit(batch);
      } catch (error) {
        for (const charge of batch) charge.reject(error);
      }
    }
    this.#running = null;
  }

  /**
   * Charges all of one account's queued checks in a single call of `charge_checks` (migration
   * 0017: atomic on its own, no transaction, one round trip, its plans made once), if the account pays for checks (neither paused nor unlimited)
   * and its balance covers them all. Otherwise it changes nothing and answers false, and the
   * checks go through the full transaction, which refuses the ones the balance cannot cover.
   * The entries and balances are those the full transaction would write.
   */
  async #chargeAll(profileId: string, charges: PendingCharge[]): Promise<boolean> {
    // `charge_checks` takes one credit a check: a dearer one goes through the full transaction.
    if (charges.some((charge) => charge.cost > 1)) return false;
    const references = charges.filter((charge) => charge.cost > 0).map((charge) => charge.reference);
    const total = references.length;
    if (total === 0) return false;
    const { rows } = await sql<{ credits: number | null }>`
      select charge_checks(${profileId}, ${references}::text[], ${new Date()}, ${[...UNLIMITED_PLAN_REFERENCES]}::text[]) as credits`.execute(
      this.db,
    );
    const charged = rows[0];
    if (!charged || charged.credits === null) return false;
    countCredits('check', -total);
    this.charged(profileId);
    let balance = charged.credits + total;
    for (const charge of charges) {
      balance -= charge.cost;
      charge.resolve({ unlimited: false, deducted: charge.cost, remaining: balance });
    }
    return true;
  }

  async #commit(batch: PendingCharge[]): Promise<void> {
    const grouped = new Map<string, PendingCharge[]>();
    for (const charge of batch) {
      const charges = grouped.get(charge.profileId);
      if (charges) charges.push(charge);
      else grouped.set(charge.profileId, [charge]);
    }
    // The usual case first: an account that can pay for all its checks is charged in one statement.
    const byProfile = new Map<string, PendingCharge[]>();
    for (const [profileId, charges] of grouped) {
      if (!(await this.#chargeAll(profileId, charges))) byProfile.set(profileId, charges);
    }
    if (byProfile.size === 0) return;
    const outcomes = new Map<PendingCharge, CheckCharge | ApiError>();
    const charged = new Set<string>();
    await this.db.transaction().execute(async (trx) => {
      outcomes.clear();
      charged.clear();
      // In id order, so two processes locking the same accounts cannot deadlock.
      const profiles = await trx
        .selectFrom('profiles')
        .select(['id', 'credits', 'plan_reference', 'plan_status', 'plan_expires_at'])
        .where('id', 'in', [...byProfile.keys()])
        .orderBy('id')
        .forUpdate()
        .execute();
      const entries: { profileId: string; delta: number; balanceAfter: number; reference: string }[] = [];
      const balances: { profileId: string; balance: number }[] = [];
      const now = new Date();
      for (const profile of profiles) {
        const charges = byProfile.get(profile.id) ?? [];
        if (profile.plan_status === 'paused') {
          for (const charge of charges) outcomes.set(charge, planPausedError());
          continue;
        }
        if (hasUnlimited(profile, now)) {
          for (const charge of charges) outcomes.set(charge, { unlimited: true });
          continue;
        }
        let balance = profile.credits;
        for (const charge of charges) {
          if (balance < charge.cost) {
            outcomes.set(charge, insufficientCredits(charge.cost, balance));
            continue;
          }
          balance -= charge.cost;
          outcomes.set(charge, { unlimited: false, deducted: charge.cost, remaining: balance });
          if (charge.cost > 0) {
            entries.push({
              profileId: profile.id,
              delta: -charge.cost,
              balanceAfter: balance,
              reference: charge.reference,
            });
          }
        }
        if (balance !== profile.credits) {
          balances.push({ profileId: profile.id, balance });
          charged.add(profile.id);
        }
      }
      if (entries.length > 0) {
        // One statement moves the balances and adds the entries: one round trip fewer per batch.
        const updates = balances.map(
          ({ profileId, balance }, i) =>
            sql`${sql.ref(`balance_${i}`)} as (update profiles set credits = ${balance}, updated_at = ${now} where id = ${profileId})`,
        );
        const rows = entries.map(
          (entry) =>
            sql`(${entry.profileId}, ${entry.delta}, ${entry.balanceAfter}, 'check', ${entry.reference})`,
        );
        await sql`with ${sql.join(updates)} insert into credit_ledger (profile_id, delta, balance_after, kind, reference) values ${sql.join(rows)}`.execute(
          trx,
        );
      }
    });
    for (const profileId of charged) this.charged(profileId);
    for (const charge of batch) {
      const outcome = outcomes.get(charge);
      if (outcome === undefined) charge.reject(new ApiError('not_found', 'No such account.'));
      else if ('unlimited' in outcome) {
        if (!outcome.unlimited) countCredits('check', -outcome.deducted);
        charge.resolve(outcome);
      } else charge.reject(outcome);
    }
  }
}
