import type { Kysely } from 'kysely';
import { recordAudit } from '../admin/audit-log.js';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ApiError } from '../errors/api-error.js';
import type { IdentityAdmin } from '../identity-admin/identity-admin.js';
import type { CardPayments } from '../payments/card-payments.js';
import type { Database } from '../storage/schema.js';
import { getProfile, type Profile } from './profiles.js';

/** What an account's deletion reaches beyond the database. */
export interface AccountDeletionDeps {
  db: Kysely<Database>;
  blobStore: BlobStore;
  identity: () => Promise<IdentityAdmin | null>;
  cards: CardPayments;
  /** Where a card the provider would not remove is reported. */
  logger: { warn(detail: object, message: string): void };
}

/** The id that stands for a deleted account in the rows that stay (ledger, audit, jobs). */
export const tombstoneOf = (profileId: string) => `deleted-${profileId}`;

/** Subscription states the provider still bills: the plan must be cancelled first. */
const BILLED = new Set(['active', 'paused', 'past_due']);

/** The typed confirmation, a running job or a billed plan stop a deletion before anything goes. */
function requireDeletable(profile: Profile, confirmEmail: string, running: number): void {
  if (confirmEmail.toLowerCase() !== profile.email.toLowerCase()) {
    throw new ApiError(
      'validation_failed',
      "Type the account's e-mail address to confirm: it did not match, and nothing was deleted.",
    );
  }
  if (profile.subscription_id !== null && BILLED.has(profile.subscription_status)) {
    throw new ApiError(
      'conflict',
      'Your monthly plan is still billed: cancel it first (Account, or `scrub subscription cancel`), then delete the account.',
    );
  }
  if (running > 0) {
    throw new ApiError(
      'conflict',
      'A bulk job of this account is still running: delete the account once it has completed or failed.',
    );
  }
}

/** The saved cards go at the payment provider, where it lets them; answers how many stayed. */
async function removeCards(deps: AccountDeletionDeps, profile: Profile): Promise<number> {
  let kept = 0;
  for (const card of await deps.cards.listCards(profile)) {
    try {
      await deps.cards.removeCard(profile, card.id);
    } catch (error) {
      kept++;
      deps.logger.warn({ err: error, profileId: profile.id }, 'saved card not removed');
    }
  }
  return kept;
}

/** Every upload and result of the account (files and suppression imports) leaves the file store. */
async function removeStoredFiles(deps: AccountDeletionDeps, profileId: string): Promise<void> {
  const { db, blobStore } = deps;
  const jobs = await db
    .selectFrom('bulk_jobs')
    .select(['upload_key', 'result_key'])
    .where('profile_id', '=', profileId)
    .execute();
  for (const job of jobs) {
    await blobStore.delete(job.upload_key);
    if (job.result_key !== null) await blobStore.delete(job.result_key);
  }
  const imports = await db
    .selectFrom('suppression_imports')
    .select('upload_key')
    .where('profile_id', '=', profileId)
    .execute();
  for (const stored of imports) await blobStore.delete(stored.upload_key);
}

/**
 * The database's part, in one transaction: the phone log, suppression list, webhooks and API keys
 * go; the jobs stay (the ledger names them) marked removed with no file name; the audit rows and
 * the profile keep the tombstone in place of the e-mail; the profile's personal data is cleared.
 */
async function forgetInDatabase(db: Kysely<Database>, profile: Profile, now: Date): Promise<void> {
  const tombstone = tombstoneOf(profile.id);
  await db.transaction().execute(async (trx) => {
    const id = profile.id;
    await trx.deleteFrom('check_log').where('profile_id', '=', id).execute();
    await trx.deleteFrom('suppression_numbers').where('profile_id', '=', id).execute();
    await trx.deleteFrom('suppression_lists').where('profile_id', '=', id).execute();
    await trx.deleteFrom('suppression_imports').where('profile_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('profile_id', '=', id).execute();
    await trx.deleteFrom('webhook_events').where('profile_id', '=', id).execute();
    await trx.deleteFrom('api_keys').where('profile_id', '=', id).execute();
    // No auto top-up or low-balance e-mail for an account that is gone (its cards are removed too).
    await trx.deleteFrom('balance_watches').where('profile_id', '=', id).execute();
    await trx.deleteFrom('mail_outbox').where('to_address', '=', profile.email).execute();
    await trx
      .updateTable('bulk_jobs')
      .set({ file_name: 'deleted.csv', files_removed_by: 'account', files_removed_at: now, updated_at: now })
      .where('profile_id', '=', id)
      .execute();
    await trx.updateTable('audit_log').set({ actor_email: tombstone }).where('actor_id', '=', id).execute();
    await trx
      .updateTable('audit_log')
      .set({ subject_email: tombstone })
      .where('subject_id', '=', id)
      .execute();
    await trx
      .updateTable('profiles')
      .set({
        sub: tombstone,
        email: tombstone,
        user_name: '',
        address: '{}',
        lists: '[]',
        deleted_at: now,
        disabled_at: now,
        tokens_valid_after: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    const account = { profileId: id, email: tombstone };
    await recordAudit(trx, { actor: account, subject: account, action: 'account.delete' });
  });
}

/**
 * Deletes the account, after the owner typed its e-mail address again. Uploads and results, the
 * phone log, the suppression list, webhooks, API keys, saved cards (at the provider, where it lets
 * them) and the sign-in (the identity pool's user) go; the ledger and audit rows stay, naming the
 * account by its tombstone id. Answers the tombstone and how many cards the provider kept.
 */
export async function deleteAccount(
  deps: AccountDeletionDeps,
  profileId: string,
  confirmEmail: string,
): Promise<{ tombstone: string; cardsKept: number }> {
  const profile = await getProfile(deps.db, profileId);
  const running = await deps.db
    .selectFrom('bulk_jobs')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('profile_id', '=', profileId)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirstOrThrow();
  requireDeletable(profile, confirmEmail, Number(running.count));
  const cardsKept = await removeCards(deps, profile);
  await removeStoredFiles(deps, profileId);
  const identity = await deps.identity();
  if (identity) await identity.deleteUser(profile.sub);
  await forgetInDatabase(deps.db, profile, new Date());
  return { tombstone: tombstoneOf(profileId), cardsKept };
}
