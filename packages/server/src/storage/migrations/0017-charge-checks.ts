import { type Kysely, sql } from 'kysely';

/**
 * `charge_checks`: the charge of a group of single checks (`CheckCharger`) as a function, so that
 * PostgreSQL plans its two statements once per connection rather than on every call (the embedded
 * database spent about a third of each charge planning it). It takes one credit per reference
 * from an account that can pay for all of them (active plan, not unlimited at `at`, balance
 * covering them) and writes one ledger entry per reference, in order, each with the balance after
 * it; it answers the balance after the last, or null, changing nothing, when the account cannot
 * pay for all of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function charge_checks(account uuid, refs text[], at timestamptz, unlimited text[])
    returns integer language plpgsql as $$
    declare
      total integer := cardinality(refs);
      balance integer;
    begin
      update profiles set credits = credits - total, updated_at = at
      where id = account and credits >= total and plan_status = 'active'
        and (plan_reference is null or plan_reference <> all(unlimited)
          or (plan_expires_at is not null and plan_expires_at <= at))
      returning credits into balance;
      if balance is null then
        return null;
      end if;
      insert into credit_ledger (profile_id, delta, balance_after, kind, reference)
      select account, -1, balance + total - entry.n, 'check', entry.reference
      from unnest(refs) with ordinality as entry(reference, n)
      order by entry.n;
      return balance;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function charge_checks(uuid, text[], timestamptz, text[])`.execute(db);
}
