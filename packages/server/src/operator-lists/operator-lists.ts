import type { AccountLists, OperatorList, OperatorListAnswer } from '@scrub/contract';
import { DncSet, OPERATOR_LIST_PREFIX } from '@scrub/engine';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { ReferenceSnapshot } from '../reference-data/reference-data.js';
import type { Database } from '../storage/schema.js';

/**
 * Operator lists (known litigators, vendors' lists: `scrub-server data import list`) as a customer
 * counts them: the account's default (`profiles.lists`), or the request's or job's own `lists`.
 * A hit is a risk flag beside `dnc`, never part of it.
 */

const NO_LISTS = new DncSet();

/** The operator lists loaded now, by name (without `list:`), as an account sees them. */
export function availableLists(snapshot: ReferenceSnapshot): OperatorList[] {
  return (snapshot.lists?.lists ?? []).map((list) => ({
    name: list.name.slice(OPERATOR_LIST_PREFIX.length),
    version: list.version,
    released_on: list.releasedOn,
    numbers: list.size,
  }));
}

/** A set's lists by name, without `list:`. */
export function namesOf(lists: DncSet): string[] {
  return lists.lists.map((list) => list.name.slice(OPERATOR_LIST_PREFIX.length));
}

/**
 * A job's lists, named when it was created, as the snapshot holds them now. Nothing removes a
 * list once imported, so none is missing; one that were would be left out, not guessed.
 */
export function jobLists(snapshot: ReferenceSnapshot, names: readonly string[] | null): DncSet | undefined {
  const loaded = snapshot.lists ?? NO_LISTS;
  const lists = (names ?? []).flatMap((name) => loaded.list(`${OPERATOR_LIST_PREFIX}${name}`) ?? []);
  return lists.length === 0 ? undefined : new DncSet(lists);
}

/** The snapshot's lists named (in the order named, each once); 400 naming the known ones for any other. */
export function listsNamed(snapshot: ReferenceSnapshot, names: readonly string[]): DncSet {
  if (names.length === 0) return NO_LISTS;
  const loaded = snapshot.lists ?? NO_LISTS;
  const unknown = names.filter((name) => loaded.list(`${OPERATOR_LIST_PREFIX}${name}`) === undefined);
  if (unknown.length > 0) {
    const known = loaded.lists.map((list) => list.name.slice(OPERATOR_LIST_PREFIX.length));
    throw new ApiError(
      'bad_request',
      `lists: no list named ${unknown.map((name) => `"${name}"`).join(', ')}: ${known.length === 0 ? 'the operator has imported no lists' : `the lists are ${known.join(', ')}`}.`,
    );
  }
  return new DncSet([...new Set(names)].map((name) => loaded.list(`${OPERATOR_LIST_PREFIX}${name}`)!));
}

/** The account's default lists; [] without one. */
export async function accountLists(db: Kysely<Database>, profileId: string): Promise<string[]> {
  const row = await db.selectFrom('profiles').select('lists').where('id', '=', profileId).executeTakeFirst();
  return row?.lists ?? [];
}

/** Sets the account's default lists, each a loaded list (else 400). */
export async function setAccountLists(
  db: Kysely<Database>,
  snapshot: ReferenceSnapshot,
  profileId: string,
  names: readonly string[],
): Promise<void> {
  const chosen = listsNamed(snapshot, names).lists.map((list) =>
    list.name.slice(OPERATOR_LIST_PREFIX.length),
  );
  await db
    .updateTable('profiles')
    .set({ lists: JSON.stringify(chosen), updated_at: new Date() })
    .where('id', '=', profileId)
    .execute();
}

/** `GET /user/lists`. */
export async function accountListSettings(
  db: Kysely<Database>,
  snapshot: ReferenceSnapshot,
  profileId: string,
): Promise<AccountLists> {
  return { lists: await accountLists(db, profileId), available: availableLists(snapshot) };
}

/**
 * The lists that count for one check or job: those asked for, else the account's default (read
 * only when the operator has imported any list). A default naming a list no longer loaded is
 * left out rather than refused: the customer did not ask for it now.
 */
export async function countedLists(
  db: Kysely<Database>,
  snapshot: ReferenceSnapshot,
  profileId: string,
  asked: readonly string[] | undefined,
): Promise<DncSet> {
  if (asked !== undefined) return listsNamed(snapshot, asked);
  const loaded = snapshot.lists ?? NO_LISTS;
  if (loaded.lists.length === 0) return NO_LISTS;
  const names = (await accountLists(db, profileId)).filter(
    (name) => loaded.list(`${OPERATOR_LIST_PREFIX}${name}`) !== undefined,
  );
  return listsNamed(snapshot, names);
}

/**
 * One number's answers, one per counted list: listed true or false for a valid number, true for
 * an invalid one a list holds, null (not checked) for an invalid one it does not.
 */
export function listAnswers(lists: DncSet, e164: string | null, valid: boolean): OperatorListAnswer[] {
  if (lists.lists.length === 0) return [];
  const number = e164 !== null && /^\+1\d{10}$/.test(e164) ? Number(e164.slice(2)) : -1;
  const mask = number < 0 ? 0 : lists.mask(number);
  return lists.lists.map((list, i) => ({
    name: list.name.slice(OPERATOR_LIST_PREFIX.length),
    listed: (mask >>> i) & 1 ? true : valid ? false : null,
    released_on: list.releasedOn,
  }));
}
