import type { ExchangeData } from './classify.ts';

/** Where a dataset's answers come from: data the operator imported, or generated sample data. */
export type DataSource = 'imported' | 'sample';

/** What every dataset carries, so that answers and /health can say which data answered. */
export interface Versioned {
  readonly version: string;
  /** Absent means imported: only generated data says `sample`. */
  readonly source?: DataSource;
}

/**
 * The datasets one answer is computed from, by name. A snapshot is never changed: a new import
 * makes a new snapshot, so an answer (or a whole bulk file) computed from one snapshot cannot mix
 * versions.
 */
export interface Datasets {
  /** Line types by exchange, thousands block and number. */
  readonly exchange?: ExchangeData;
  readonly [name: string]: Versioned | undefined;
}

/**
 * The current snapshot of something swapped whole, such as the engine's datasets. An import builds
 * its tables beside the live ones, then `swap` replaces the snapshot with one assignment: readers
 * never wait, and a reader that took a snapshot keeps answering from it, old tables included, for
 * as long as it holds it. Each thread holds its own ref; tables built on SharedArrayBuffers are
 * posted to the other threads, which swap their refs in turn.
 */
export class VersionedRef<T extends object> {
  #current: T;
  #generation = 0;

  constructor(initial: T) {
    this.#current = Object.freeze(initial);
  }

  /** The snapshot to answer from. Take it once per answer, or once per bulk job, and keep it. */
  current(): T {
    return this.#current;
  }

  /** How many swaps this ref has seen: lets a reader notice that its snapshot is no longer current. */
  get generation(): number {
    return this.#generation;
  }

  /** Replaces the snapshot and returns the one it replaced. */
  swap(next: T): T {
    const previous = this.#current;
    this.#current = Object.freeze(next);
    this.#generation++;
    return previous;
  }

  /** Swaps in a copy of the current snapshot with some entries replaced, keeping the others. */
  update(changes: Partial<T>): T {
    return this.swap({ ...this.#current, ...changes });
  }
}

/** The version of each dataset in a snapshot, by name, for answers and /health. */
export function datasetVersions(datasets: Datasets): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const [name, dataset] of Object.entries(datasets)) {
    if (dataset !== undefined) versions[name] = dataset.version;
  }
  return versions;
}

/** `sample` when any dataset in the snapshot is sample data: then no answer from it is real. */
export function dataSourceOf(datasets: Datasets): DataSource {
  return Object.values(datasets).some((dataset) => dataset?.source === 'sample') ? 'sample' : 'imported';
}
