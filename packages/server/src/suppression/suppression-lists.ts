import { DncList, DncListBuilder, type DncSet } from '@scrub/engine';
import type { Logger } from 'pino';
import type { ReferenceSnapshot } from '../reference-data/reference-data.js';
import type { DatabaseHandle } from '../storage/database.js';
import { suppressedNumbers, suppressionVersion } from './suppression-store.js';

/** The database channel that tells every process an account's list changed (payload: its profile id). */
const CHANNEL = 'scrub_suppression_lists';

/** The name answers give an account's own list in `dnc_sources` and `dnc_lists_checked`. */
export const INTERNAL_LIST = 'internal';

/**
 * How long a list held in memory is trusted without asking the database for its version. A change
 * is announced at once (NOTIFY); this bounds how long a lost announcement (a listening connection
 * that broke) can leave a process answering from an old list.
 */
const TRUSTED_MS = 30_000;

/** What one account's checks consult, and the version to key cached answers with. */
export interface AccountDnc {
  set: DncSet;
  /** Changes whenever the account's list does (its own numbers or the operator's import). */
  version: string;
}

interface Held {
  /** The version of the account's numbers in the database. */
  version: number;
  /** The account's numbers; null when it has none. */
  own: DncList | null;
  /** When the version was last read from (or announced by) the database. */
  checkedAt: number;
  /** The set last made from `own`, the operator's list and the shared lists. */
  made?: { shared: DncSet; operator: DncList | undefined; set: DncSet };
}

/**
 * Accounts' own suppression lists in memory, so that a check costs no query: each account's
 * numbers are read once into a `DncList`, joined with the list the operator imported for it
 * (`scrub-server data import internal`) into one list named `internal`, and kept until the account
 * changes its list. A change made in any process is announced to every process through the
 * database's LISTEN/NOTIFY and is counted from the next check.
 */
export class SuppressionLists {
  readonly #held = new Map<string, Held>();
  readonly #loading = new Map<string, Promise<Held>>();
  #unlisten: (() => Promise<void>) | null = null;

  private constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: Logger | false,
    private readonly trustedMs: number,
  ) {}

  static async open(
    database: DatabaseHandle,
    logger: Logger | false,
    { trustedMs = TRUSTED_MS }: { trustedMs?: number } = {},
  ): Promise<SuppressionLists> {
    const lists = new SuppressionLists(database, logger, trustedMs);
    lists.#unlisten = await database.listen(CHANNEL, (profileId) => lists.#forget(profileId));
    return lists;
  }

  /** The lists one account's checks consult: the shared ones of `snapshot`, and the account's own. */
  async dncFor(snapshot: ReferenceSnapshot, profileId: string): Promise<AccountDnc> {
    const held = await this.#current(profileId);
    const operator = snapshot.internal?.get(profileId);
    const version = `${held.version}.${operator?.version ?? '-'}`;
    if (held.own === null && operator === undefined) return { set: snapshot.dnc, version };
    const made = held.made;
    if (made?.shared === snapshot.dnc && made.operator === operator) return { set: made.set, version };
    const set = snapshot.dnc.with(joined(held, operator));
    held.made = { shared: snapshot.dnc, operator, set };
    return { set, version };
  }

  /** Says the account's list changed: this process forgets it now, the others on the announcement. */
  async changed(profileId: string): Promise<void> {
    this.#forget(profileId);
    try {
      await this.database.notify(CHANNEL, profileId);
    } catch (error) {
      // The other processes find the change within TRUSTED_MS anyway.
      if (this.logger) this.logger.warn({ err: error }, 'suppression list change not announced');
    }
  }

  async close(): Promise<void> {
    await this.#unlisten?.();
    this.#unlisten = null;
  }

  #forget(profileId: string): void {
    this.#held.delete(profileId);
    this.#loading.delete(profileId);
  }

  async #current(profileId: string): Promise<Held> {
    const held = this.#held.get(profileId);
    if (held !== undefined && Date.now() - held.checkedAt < this.trustedMs) return held;
    let loading = this.#loading.get(profileId);
    if (loading === undefined) {
      loading = this.#load(profileId, held);
      this.#loading.set(profileId, loading);
      loading.then(
        (loaded) => {
          // A change announced while loading made this load stale: it is not kept.
          if (this.#loading.get(profileId) === loading) {
            this.#loading.delete(profileId);
            this.#held.set(profileId, loaded);
          }
        },
        () => {
          if (this.#loading.get(profileId) === loading) this.#loading.delete(profileId);
        },
      );
    }
    return loading;
  }

  async #load(profileId: string, before: Held | undefined): Promise<Held> {
    const { db } = this.database;
    const version = await suppressionVersion(db, profileId);
    if (before !== undefined && before.version === version) return { ...before, checkedAt: Date.now() };
    const checkedAt = Date.now();
    if (version === 0) return { version, own: null, checkedAt };
    const builder = new DncListBuilder(INTERNAL_LIST);
    let count = 0;
    for await (const batch of suppressedNumbers(db, profileId)) {
      for (const number of batch) builder.add(number);
      count += batch.length;
    }
    return { version, own: count === 0 ? null : builder.build(String(version)), checkedAt };
  }
}

/** The account's numbers and the operator's list for it, as one list named `internal`. */
function joined(held: Held, operator: DncList | undefined): DncList {
  if (operator === undefined) return held.own!;
  if (held.own === null) return renamed(operator);
  const builder = new DncListBuilder(INTERNAL_LIST, { base: renamed(operator) });
  for (const number of held.own.numbers()) builder.add(number);
  return builder.build(`${held.version}.${operator.version}`);
}

function renamed(list: DncList): DncList {
  return DncList.fromShared({ ...list.toShared(), name: INTERNAL_LIST });
}
