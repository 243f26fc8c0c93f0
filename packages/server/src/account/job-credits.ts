import type { JobCredits } from '@scrub/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.js';

/** The ledger's entries of a job: its charges and its give-backs (a job's id is their reference). */
interface JobKey {
  id: string;
  profile_id: string;
}

function noCredits(): JobCredits {
  return {
    charged: 0,
    given_back: { duplicates: 0, invalid: 0, unanswered_lookups: 0, failed_or_cut: 0, unspecified: 0 },
    given_back_total: 0,
    net: 0,
  };
}

/**
 * Each job's credits as the ledger has them: charged (its `bulk_charge` entries), given back by
 * reason (its `reversal` entries) and net. The net is what the balance fell by for the job, whatever
 * the job's own columns say. One query for a page of jobs.
 */
export async function jobCredits(
  db: Kysely<Database>,
  jobs: readonly JobKey[],
): Promise<Map<string, JobCredits>> {
  const credits = new Map(jobs.map((job) => [job.id, noCredits()]));
  if (jobs.length === 0) return credits;
  const rows = await db
    .selectFrom('credit_ledger')
    .select(['reference', 'kind', 'reason', sql<string>`sum(delta)::int8`.as('credits')])
    .where('profile_id', 'in', [...new Set(jobs.map((job) => job.profile_id))])
    .where(
      'reference',
      'in',
      jobs.map((job) => job.id),
    )
    .where('kind', 'in', ['bulk_charge', 'reversal'])
    .groupBy(['reference', 'kind', 'reason'])
    .execute();
  for (const row of rows) {
    const job = credits.get(row.reference ?? '');
    if (!job) continue;
    const amount = Number(row.credits);
    if (row.kind === 'bulk_charge') job.charged -= amount;
    else {
      job.given_back[row.reason ?? 'unspecified'] += amount;
      job.given_back_total += amount;
    }
  }
  for (const job of credits.values()) job.net = job.charged - job.given_back_total;
  return credits;
}

/** One job's credits (see `jobCredits`). */
export async function creditsOfJob(db: Kysely<Database>, job: JobKey): Promise<JobCredits> {
  return (await jobCredits(db, [job])).get(job.id)!;
}
