import { createHash } from 'node:crypto';
import { unwatchFile, watchFile } from 'node:fs';
import {
  type Datasets,
  type DisconnectList,
  type DncList,
  DncSet,
  datasetVersions,
  type ExchangeTable,
  isOperatorList,
  MAX_DNC_LISTS,
  referenceDataVersions,
  sampleExchangeTable,
  type Versioned,
  VersionedRef,
} from '@scrub/engine';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/config.js';
import { DatasetStore, EXCHANGE, FEDERAL, isSharedList, type LoadedVersion } from './dataset-store.js';
import { DAY_MS, DEFAULT_AGE_RULE, type DncAgeRule, listDates } from './dnc-age.js';

/** What checks answer from: line types by exchange and the do-not-call lists, one version each. */
export interface ReferenceSnapshot extends Datasets {
  readonly exchange: ExchangeTable;
  /** The lists every account's checks consult: federal, then the states'. */
  readonly dnc: DncSet;
  /** Accounts' own suppression lists; `dncFor` joins an account's to `dnc`. */
  readonly internal?: InternalDncLists;
  /** Permanent disconnections the operator imported, for reassigned-number checks; absent: none. */
  readonly disconnects?: DisconnectList;
  /**
   * The operator's flag lists (`list:litigators`), by name: consulted where a customer counts
   * them (`operator-lists/`), answered beside `dnc`, never in it.
   */
  readonly lists?: DncSet;
}

/**
 * The lists one account's checks consult: the shared lists and, when it has one, its own. Take it
 * from the same snapshot as the exchange data, once per answer (or per bulk job).
 */
export function dncFor(snapshot: ReferenceSnapshot, profileId: string): DncSet {
  return snapshot.internal?.setFor(snapshot.dnc, profileId) ?? snapshot.dnc;
}

/** A snapshot's shared dataset versions by name (`nanpa_npa`, `exchange`, `dnc:federal`, `dnc:state:TX`...). */
export function versionsOf({ exchange, dnc }: ReferenceSnapshot): Record<string, string> {
  return {
    ...referenceDataVersions(),
    ...datasetVersions({ exchange }),
    ...Object.fromEntries(Object.entries(dnc.versions()).map(([name, version]) => [`dnc:${name}`, version])),
  };
}

/**
 * Every account's own list, by profile id. Kept apart from the shared lists: a DncSet holds at most
 * 32 lists, and an account's checks must never consult another account's list.
 */
export class InternalDncLists implements Versioned {
  /** Changes whenever any account's list does; names no account (it may reach public answers). */
  readonly version: string;
  readonly #lists: ReadonlyMap<string, DncList>;
  // The set made for each account on its first check, and the shared lists it was made with.
  readonly #sets = new Map<string, { shared: DncSet; set: DncSet }>();

  constructor(lists: readonly DncList[]) {
    this.#lists = new Map(lists.map((list) => [list.name.slice('internal:'.length), list]));
    const names = lists.map((list) => `${list.name}@${list.version}`).sort();
    this.version = createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12);
  }

  get size(): number {
    return this.#lists.size;
  }

  get(profileId: string): DncList | undefined {
    return this.#lists.get(profileId);
  }

  /** `shared` with the account's list added; undefined when it has none. Made once per account and kept. */
  setFor(shared: DncSet, profileId: string): DncSet | undefined {
    const list = this.#lists.get(profileId);
    if (list === undefined) return undefined;
    const made = this.#sets.get(profileId);
    if (made?.shared === shared) return made.set;
    const set = shared.with(list);
    this.#sets.set(profileId, { shared, set });
    return set;
  }
}

export interface ReferenceDataOptions {
  /** How often to look at the manifest for a new import. Default 1 s. */
  pollIntervalMs?: number;
  /** SCRUB_DNC_MAX_AGE_DAYS and the clock; default 31 days and the system clock. */
  ageRule?: DncAgeRule;
}

// Generated once per process (70-180 ms) and never changed, so every ReferenceData shares it.
let sampleTable: ExchangeTable | undefined;
function sample(): ExchangeTable {
  sampleTable ??= sampleExchangeTable();
  return sampleTable;
}

/**
 * The reference data the service answers from. Checks take `current()` once per answer (a bulk job
 * once per job) and keep it, so a swap never mixes versions inside one answer.
 *
 * `open` loads what the operator imported (`scrub-server data import`, in its own process) and
 * watches the data directory's manifest: a new version is read into memory beside the live one and
 * swapped in whole. A version that cannot be read is logged and skipped; the live data stays.
 */
export class ReferenceData {
  readonly ref: VersionedRef<ReferenceSnapshot>;
  #loader: DatasetLoader | null = null;
  #stopWatching: (() => void) | null = null;
  // Reloads run one at a time; a change seen during one queues (at most) one more.
  #running: Promise<void> = Promise.resolve();
  #queued: Promise<void> | null = null;
  readonly ageRule: DncAgeRule;
  /** The snapshot `current()` last gave: the loaded one with its stale lists marked, as of a UTC day. */
  #aged: { loaded: ReferenceSnapshot; day: number; snapshot: ReferenceSnapshot } | null = null;

  constructor(initial: ReferenceSnapshot, ageRule: DncAgeRule = DEFAULT_AGE_RULE) {
    this.ref = new VersionedRef(initial);
    this.ageRule = ageRule;
  }

  /** Sample exchange data and no DNC lists: what a fresh embedded service answers from. */
  static sample(): ReferenceData {
    return new ReferenceData({ exchange: sample(), dnc: new DncSet() });
  }

  /**
   * The datasets imported into `<data dir>/datasets/` (sample exchange data while none is, no DNC
   * lists while none is), kept up to date with new imports until `close()`.
   */
  static async open(
    config: Pick<ServerConfig, 'dataDir'> & Partial<Pick<ServerConfig, 'dncMaxAgeDays'>>,
    logger: Logger | false,
    options: ReferenceDataOptions = {},
  ): Promise<ReferenceData> {
    const store = new DatasetStore(config.dataDir);
    const log = logger || null;
    const loader = new DatasetLoader(store, log);
    const ageRule = options.ageRule ?? {
      ...DEFAULT_AGE_RULE,
      maxAgeDays: config.dncMaxAgeDays ?? DEFAULT_AGE_RULE.maxAgeDays,
    };
    const data = new ReferenceData(await loader.load(), ageRule);
    data.#loader = loader;
    const listener = () => {
      data.reload().catch((error: unknown) => log?.error({ err: error }, 'reference data: reload failed'));
    };
    // Polling, not fs.watch: it sees the manifest replaced by a rename, on any file system, and
    // costs one stat a second. Unreferenced: it never keeps the process alive.
    watchFile(store.manifestPath, { interval: options.pollIntervalMs ?? 1000, persistent: false }, listener);
    data.#stopWatching = () => unwatchFile(store.manifestPath, listener);
    return data;
  }

  /**
   * What checks answer from now: the loaded snapshot, its federal and state lists past the maximum
   * age marked stale (`DncSet.stale`: they flag what they hold and cover nothing). Lists age at
   * 00:00 UTC, so the snapshot is worked out once a day, and again when a new version loads.
   */
  current(): ReferenceSnapshot {
    const loaded = this.ref.current();
    const now = this.ageRule.now();
    const day = Math.floor(now.getTime() / DAY_MS);
    const aged = this.#aged;
    if (aged !== null && aged.loaded === loaded && aged.day === day) return aged.snapshot;
    const stale = listDates(loaded.dnc, now, this.ageRule.maxAgeDays)
      .filter((date) => date.stale)
      .map((date) => date.list);
    const dnc = loaded.dnc.withStale(stale);
    const snapshot = dnc === loaded.dnc ? loaded : Object.freeze({ ...loaded, dnc });
    this.#aged = { loaded, day, snapshot };
    return snapshot;
  }

  /** The shared lists' release dates and ages now (federal first, then the states). */
  listDates(): ReturnType<typeof listDates> {
    return listDates(this.current().dnc, this.ageRule.now(), this.ageRule.maxAgeDays);
  }

  /**
   * Every shared dataset's version by name, the area-code table included: what /health reports.
   * Accounts' own lists are left out: they would name accounts to anyone.
   */
  versions(): Record<string, string> {
    return versionsOf(this.current());
  }

  /**
   * Datasets the operator imported of which no version could be loaded (damaged files): answers
   * without them could call a listed number clean, so checks are refused while this is not empty.
   */
  missing(): string[] {
    return this.#loader?.missing ?? [];
  }

  /** Reads the manifest again and swaps in any new version; resolves once done. The watcher calls it. */
  reload(): Promise<void> {
    const loader = this.#loader;
    if (loader === null) return Promise.resolve();
    if (this.#queued === null) {
      const load = async () => {
        this.#queued = null;
        const next = await loader.reload();
        if (next !== null) this.ref.swap(next);
      };
      // A failed load must not stop the ones after it.
      const run = this.#running.then(load, load);
      this.#queued = run;
      this.#running = run;
    }
    return this.#queued;
  }

  /** Stops watching for new versions, after any load under way. */
  async close(): Promise<void> {
    this.#stopWatching?.();
    this.#stopWatching = null;
    await this.#running;
    this.#loader = null;
  }
}

interface Loaded {
  /** The version's directory in the store. */
  dir: string;
  version: LoadedVersion;
}

/** Keeps the versions a ReferenceData answers from, and loads the ones the manifest names next. */
/** How `missing()` names a manifest that cannot be read. */
const MANIFEST_NAME = 'datasets manifest';

class DatasetLoader {
  readonly #store: DatasetStore;
  readonly #logger: Logger | null;
  #loaded = new Map<string, Loaded>();
  /** Datasets the manifest names of which no version could be loaded. */
  missing: string[] = [];

  constructor(store: DatasetStore, logger: Logger | null) {
    this.#store = store;
    this.#logger = logger;
  }

  /** The first snapshot: what the manifest names, falling back to a dataset's previous version where its live one is damaged. */
  async load(): Promise<ReferenceSnapshot> {
    const snapshot = await this.reload();
    if (snapshot !== null) return snapshot;
    this.#logger?.info(
      'reference data: no imported data loaded; answering from sample exchange data and no DNC lists',
    );
    return this.#snapshot();
  }

  /** A new snapshot when the manifest names versions other than those loaded; null when nothing changed. Never throws. */
  async reload(): Promise<ReferenceSnapshot | null> {
    const log = this.#logger;
    let datasets: Record<string, { live: string; previous: string | null }>;
    try {
      datasets = (await this.#store.readManifest()).datasets;
    } catch (error) {
      log?.error(
        { err: error },
        this.#loaded.size > 0
          ? 'reference data: the datasets manifest cannot be read; still answering from the versions loaded before'
          : 'reference data: the datasets manifest cannot be read; checks are refused until it is fixed or replaced by an import',
      );
      // Something was imported, but what is unknown: answering without it could call listed numbers clean.
      if (this.#loaded.size === 0) this.missing = [MANIFEST_NAME];
      return null;
    }
    const next = new Map<string, Loaded>();
    const missing: string[] = [];
    let changed = false;
    for (const [name, { live, previous }] of Object.entries(datasets)) {
      const loaded = this.#loaded.get(name);
      if (loaded?.dir === live) {
        next.set(name, loaded);
        continue;
      }
      const fresh = await this.#tryLoad(name, live);
      if (fresh !== null) {
        next.set(name, fresh);
        changed = true;
        continue;
      }
      if (loaded !== undefined) {
        log?.error(
          { dataset: name, version: loaded.version.meta.version },
          `reference data: still answering ${name} from the version loaded before`,
        );
        next.set(name, loaded);
        continue;
      }
      // Nothing of this dataset is loaded yet (the server is starting): the version before is
      // kept for this, and better than none, a DNC list above all.
      const older = previous === null ? null : await this.#tryLoad(name, previous);
      if (older !== null) {
        log?.warn(
          { dataset: name, version: older.version.meta.version },
          `reference data: answering ${name} from its previous version`,
        );
        next.set(name, older);
        changed = true;
      } else {
        missing.push(name);
      }
    }
    // Nothing removes a dataset: one gone from the manifest (a manifest deleted, restored from an
    // old backup) is kept. Dropping a DNC list would turn its numbers "clean".
    for (const [name, loaded] of this.#loaded) {
      if (next.has(name)) continue;
      log?.error(
        { dataset: name, version: loaded.version.meta.version },
        `reference data: ${name} is no longer in the datasets manifest; still answering from the version loaded before`,
      );
      next.set(name, loaded);
    }
    this.missing = missing;
    if (missing.length > 0) {
      log?.error(
        { datasets: missing },
        'reference data: datasets named in the manifest could not be loaded; checks are refused until they are',
      );
    }
    if (!changed) return null;
    this.#loaded = next;
    const snapshot = this.#snapshot();
    log?.info({ versions: loadedVersions(snapshot) }, 'reference data loaded');
    return snapshot;
  }

  async #tryLoad(name: string, dir: string): Promise<Loaded | null> {
    try {
      const version = await this.#store.load(dir);
      const found = version.kind === 'exchange' ? EXCHANGE : version.meta.dataset;
      if (found !== name) throw new Error(`it holds ${found}, not ${name}`);
      return { dir, version };
    } catch (error) {
      this.#logger?.error(
        { err: error, dataset: name, dir },
        `reference data: cannot load ${name} from ${dir}; ignored`,
      );
      return null;
    }
  }

  #snapshot(): ReferenceSnapshot {
    let exchange: ExchangeTable = sample();
    const shared: DncList[] = [];
    const internal: DncList[] = [];
    let disconnects: DisconnectList | undefined;
    const operator: DncList[] = [];
    for (const { version } of this.#loaded.values()) {
      if (version.kind === 'exchange') exchange = version.table;
      else if (version.kind === 'disconnects') disconnects = version.list;
      else if (isOperatorList(version.list.name)) operator.push(version.list);
      else (isSharedList(version.list.name) ? shared : internal).push(version.list);
    }
    operator.sort((a, b) => a.name.localeCompare(b.name));
    // Federal first, then the states by name: the same lists in the same order after every load.
    shared.sort((a, b) => (a.name === FEDERAL ? -1 : b.name === FEDERAL ? 1 : a.name.localeCompare(b.name)));
    if (shared.length > MAX_DNC_LISTS - 1) {
      const dropped = shared.splice(MAX_DNC_LISTS - 1).map((list) => list.name);
      this.#logger?.error(
        { dropped },
        `reference data: more than ${MAX_DNC_LISTS - 1} federal and state lists; these are not consulted`,
      );
    }
    const lists = {
      exchange,
      dnc: new DncSet(shared),
      internal: new InternalDncLists(internal),
      lists: new DncSet(operator.slice(0, MAX_DNC_LISTS)),
    };
    return disconnects === undefined ? lists : { ...lists, disconnects };
  }
}

/** What the log says was loaded: each dataset's version, and how many accounts' own lists. */
function loadedVersions(snapshot: ReferenceSnapshot): Record<string, string> {
  return {
    exchange: snapshot.exchange.version,
    ...snapshot.dnc.versions(),
    ...(snapshot.internal ? { internal: `${snapshot.internal.size} lists` } : {}),
  };
}
