import {
  type Datasets,
  DncSet,
  datasetVersions,
  type ExchangeTable,
  referenceDataVersions,
  sampleExchangeTable,
  VersionedRef,
} from '@scrub/engine';

/** What checks answer from: line types by exchange and the do-not-call lists, one version each. */
export interface ReferenceSnapshot extends Datasets {
  readonly exchange: ExchangeTable;
  readonly dnc: DncSet;
}

/**
 * The reference data the service answers from. Checks take `current()` once per answer (a bulk job
 * once per job) and keep it, so a swap never mixes versions inside one answer.
 */
export class ReferenceData {
  readonly ref: VersionedRef<ReferenceSnapshot>;

  constructor(initial: ReferenceSnapshot) {
    this.ref = new VersionedRef(initial);
  }

  /** Sample exchange data and no DNC lists: what a fresh embedded service answers from. */
  static sample(): ReferenceData {
    return new ReferenceData({ exchange: sampleExchangeTable(), dnc: new DncSet() });
  }

  current(): ReferenceSnapshot {
    return this.ref.current();
  }

  /** Every dataset's version by name, the area-code table included: what /health reports. */
  versions(): Record<string, string> {
    const { exchange, dnc } = this.current();
    return {
      ...referenceDataVersions(),
      ...datasetVersions({ exchange }),
      ...Object.fromEntries(
        Object.entries(dnc.versions()).map(([name, version]) => [`dnc:${name}`, version]),
      ),
    };
  }

  /** Stops whatever watches for new versions. */
  async close(): Promise<void> {}
}
