import type { Kysely } from 'kysely';
import { failJob, type OnJobEnd } from '../bulk/job-store.js';
import type { Database, RoleNameColumn } from '../storage/schema.js';

/**
 * Ends every token of the account issued up to now, whichever identity provider issued it: the
 * authenticator compares each token's `iat` with this instant.
 */
export async function revokeTokens(db: Kysely<Database>, profileId: string): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ tokens_valid_after: new Date() })
    .where('id', '=', profileId)
    .execute();
}

/**
 * Disables the account: its key and tokens are refused from now on (the caller also drops the
 * key cache), and its queued or running bulk jobs fail with every credit given back, each with
 * `onJobEnd` in its transaction (its `job.failed` event). Nothing is deleted. Answers the ids of
 * the jobs failed.
 */
export async function disableAccount(
  db: Kysely<Database>,
  profileId: string,
  onJobEnd?: OnJobEnd,
): Promise<string[]> {
  const now = new Date();
  await db
    .updateTable('profiles')
    .set({ disabled_at: now, tokens_valid_after: now, updated_at: now })
    .where('id', '=', profileId)
    .execute();
  const jobs = await db
    .selectFrom('bulk_jobs')
    .select('id')
    .where('profile_id', '=', profileId)
    .where('status', 'in', ['queued', 'processing'])
    .execute();
  const failed: string[] = [];
  for (const job of jobs) {
    if (await failJob(db, job.id, null, 'the account was disabled', onJobEnd)) failed.push(job.id);
  }
  return failed;
}

export async function enableAccount(db: Kysely<Database>, profileId: string): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ disabled_at: null, updated_at: new Date() })
    .where('id', '=', profileId)
    .execute();
}

/** The profile of an account the admin area made, before its first sign-in (an Agency's client when `agencyId`). */
export async function insertProfile(
  db: Kysely<Database>,
  input: { sub: string; email: string; name: string; role: RoleNameColumn; agencyId?: string | null },
) {
  return db
    .insertInto('profiles')
    .values({
      sub: input.sub,
      email: input.email,
      user_name: input.name,
      role: input.role,
      plan_reference: null,
      plan_expires_at: null,
      agency_id: input.agencyId ?? null,
    })
    .onConflict((oc) =>
      oc
        .column('sub')
        .doUpdateSet({ email: input.email, role: input.role, agency_id: input.agencyId ?? null }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}
