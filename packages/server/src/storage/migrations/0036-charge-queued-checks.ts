import { type Kysely, sql } from 'kysely';

/**
 * `charge_queued_checks`: the charge of every single check queued while the last one committed
 * (`CheckCharger`), whatever accounts they belong to, in one statement. Check `n` is
 * `accounts[n]` paying `costs[n]` for the number `refs[n]`. Reading the accounts, it locks them in
 * id order (two processes charging the same accounts cannot deadlock), and no harder than an
 * update of their balance does (`no key update`: the phone log's inserts, whose foreign keys lock
 * many accounts in any order, neither wait for it nor deadlock with it). Then it takes each
 * account's checks in the order given: a paused plan pays nothing (`paused`), an unlimited one at
 * `at` neither (`unlimited`), a check the balance cannot cover is refused (`refused`, with the
 * balance it found) and a later, cheaper one may still pass; the others are `charged`, each with
 * the balance after it, and each with a cost gets its own ledger entry, in order. It answers one
 * row of two arrays, each check's outcome and balance in the order given (one row, not one per
 * check: less to send and parse); a check of an account that no longer exists has a null outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function charge_queued_checks(
      accounts uuid[], costs integer[], refs text[], at timestamptz, unlimited text[]
    )
    returns table (check_outcomes text[], check_balances integer[])
    language plpgsql as $$
    declare
      outcomes text[] := array_fill(null::text, array[cardinality(accounts)]);
      balances integer[] := array_fill(null::integer, array[cardinality(accounts)]);
      entry_accounts uuid[] := '{}';
      entry_costs integer[] := '{}';
      entry_balances integer[] := '{}';
      entry_refs text[] := '{}';
      entry_count integer := 0;
      moved_accounts uuid[] := '{}';
      moved_balances integer[] := '{}';
      moved_count integer := 0;
      item record;
      current_account uuid;
      account_state text;
      opening_balance integer;
      account_balance integer;
    begin
      for item in
        select queued.n::integer as n, queued.account, queued.cost, queued.reference,
          p.credits, p.plan_status, p.plan_reference, p.plan_expires_at
        from unnest(accounts, costs, refs) with ordinality as queued(account, cost, reference, n)
        join profiles p on p.id = queued.account
        order by queued.account, queued.n
        for no key update of p
      loop
        if current_account is distinct from item.account then
          if account_balance is distinct from opening_balance then
            moved_count := moved_count + 1;
            moved_accounts[moved_count] := current_account;
            moved_balances[moved_count] := account_balance;
          end if;
          current_account := item.account;
          opening_balance := item.credits;
          account_balance := item.credits;
          account_state := case
            when item.plan_status = 'paused' then 'paused'
            when item.plan_reference = any(unlimited)
              and (item.plan_expires_at is null or item.plan_expires_at > at) then 'unlimited'
            else 'paying'
          end;
        end if;
        if account_state <> 'paying' then
          outcomes[item.n] := account_state;
        elsif account_balance < item.cost then
          outcomes[item.n] := 'refused';
          balances[item.n] := account_balance;
        else
          account_balance := account_balance - item.cost;
          outcomes[item.n] := 'charged';
          balances[item.n] := account_balance;
          if item.cost > 0 then
            entry_count := entry_count + 1;
            entry_accounts[entry_count] := item.account;
            entry_costs[entry_count] := item.cost;
            entry_balances[entry_count] := account_balance;
            entry_refs[entry_count] := item.reference;
          end if;
        end if;
      end loop;
      if account_balance is distinct from opening_balance then
        moved_count := moved_count + 1;
        moved_accounts[moved_count] := current_account;
        moved_balances[moved_count] := account_balance;
      end if;
      update profiles set credits = moved.balance, updated_at = at
      from unnest(moved_accounts, moved_balances) as moved(account, balance)
      where profiles.id = moved.account;
      insert into credit_ledger (profile_id, delta, balance_after, kind, reference)
      select entry.account, -entry.cost, entry.balance, 'check', entry.reference
      from unnest(entry_accounts, entry_costs, entry_balances, entry_refs)
        with ordinality as entry(account, cost, balance, reference, n)
      order by entry.n;
      return query select outcomes, balances;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function charge_queued_checks(uuid[], integer[], text[], timestamptz, text[])`.execute(db);
}
