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

/**
 * Checks charged in one statement at most. Its arrays are 5 bind parameters whatever their length;
 * the bound keeps the accounts' locks short and a statement's answer small.
 */
const MAX_BATCH = 1000;

/** What `charge_queued_checks` (migration 0036) answers: each check's outcome and balance, in order. */
interface QueuedOutcomes {
  check_outcomes: ('charged' | 'refused' | 'paused' | 'unlimited' | null)[];
  check_balances: (number | null)[];
}

/**
 * Charges single checks with group commit: while one statement runs, the charges that arrive
 * queue up, and the next statement takes them all at once, whatever accounts they belong to (one
 * call of `charge_queued_checks`, migration 0036: one round trip, atomic on its own). Under load
 * a statement carries hundreds of checks instead of one, and the ledger stays exact: each check
 * is its own entry, in order, with the balance after it, and a check the balance cannot cover is
 * refused, never half-charged. Each check is answered only after the statement has committed.
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
   * One call of `charge_queued_checks` for the whole batch, every account at once; it has
   * committed when it answers, and only then is each check answered: charged, refused (402),
   * paused (403) or unlimited, as its row says.
   */
  async #commit(batch: PendingCharge[]): Promise<void> {
    const { rows } = await sql<QueuedOutcomes>`
      select check_outcomes, check_balances from charge_queued_checks(
        ${batch.map((charge) => charge.profileId)}::uuid[],
        ${batch.map((charge) => charge.cost)}::integer[],
        ${batch.map((charge) => charge.reference)}::text[],
        ${new Date()},
        ${[...UNLIMITED_PLAN_REFERENCES]}::text[])`.execute(this.db);
    const outcomes = rows[0]?.check_outcomes ?? [];
    const balances = rows[0]?.check_balances ?? [];
    const charged = new Set<string>();
    let deducted = 0;
    for (const [i, charge] of batch.entries()) {
      const outcome = outcomes[i];
      const balance = balances[i] ?? 0;
      if (outcome === 'charged') {
        if (charge.cost > 0) charged.add(charge.profileId);
        deducted += charge.cost;
        charge.resolve({ unlimited: false, deducted: charge.cost, remaining: balance });
      } else if (outcome === 'unlimited') charge.resolve({ unlimited: true });
      else if (outcome === 'refused') charge.reject(insufficientCredits(charge.cost, balance));
      else if (outcome === 'paused') charge.reject(planPausedError());
      else charge.reject(new ApiError('not_found', 'No such account.'));
    }
    if (deducted > 0) countCredits('check', -deducted);
    for (const profileId of charged) this.charged(profileId);
  }
}
