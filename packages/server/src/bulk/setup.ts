import type { Logger } from 'pino';
import type { BlobStore } from '../blob-store/blob-store.js';
import type { CarrierLookups } from '../carrier-lookup/carrier-lookups.js';
import type { Mailer } from '../mail/mailer.js';
import type { ReferenceData } from '../reference-data/reference-data.js';
import type { DatabaseHandle } from '../storage/database.js';
import type { SuppressionLists } from '../suppression/suppression-lists.js';
import type { Tracer } from '../tracing/spans.js';
import { BulkWorker, type JobProcessor } from './bulk-worker.js';
import { CsvJobProcessor, PARALLEL_FILE_BYTES, SMALL_FILE_BYTES } from './csv-processor.js';
import { JobExpiry, type JobExpiryOptions } from './job-expiry.js';
import { JobSignals } from './job-signals.js';
import { type OnJobEnd, requeueOrphanedJobs } from './job-store.js';

export interface BulkOptions {
  database: DatabaseHandle;
  blobStore: BlobStore;
  referenceData: ReferenceData;
  /** Accounts' own suppression lists, consulted with the shared lists. */
  suppressionLists: SuppressionLists;
  mailer: Mailer;
  publicUrl: () => string;
  logger: Logger | false;
  /** Run jobs in this process (default). Off for processes that only answer the API. */
  runWorker: boolean;
  /** SCRUB_REQUIRE_DNC. */
  requireDnc: readonly string[];
  /** SCRUB_SCRUB_THREADS: threads a large job's scrub is spread over. Default 1. */
  scrubThreads?: number;
  /** How long after creation a job never submitted is removed, with its file. */
  unsubmittedJobTtlSeconds: number;
  /** Runs in the transaction that ends each job (its webhook event). */
  onJobEnd?: OnJobEnd;
  /** Live carrier lookups for jobs that ask them (`lookup: 'carrier'`); null or absent: none. */
  carrierLookups?: CarrierLookups | null;
  /** Other old rows the expiry sweep removes (webhook events past their retention). */
  alsoRemove?: JobExpiryOptions['alsoRemove'];
  /** Starts each job's span when tracing is on. */
  tracer?: Tracer | null;
}

/** What the bulk-jobs routes hand work to: the processor counts a file at submit, the worker runs the queue. */
export interface BulkServices {
  processor: JobProcessor & Pick<CsvJobProcessor, 'scrubStream'>;
  /** Runs in the transaction that ends each job (its webhook event); streamed jobs end in the API. */
  onJobEnd: OnJobEnd | undefined;
  worker: BulkWorker;
  /** Queued and ended jobs, told to every process (workers wake, waiting clients are answered). */
  signals: JobSignals;
  /** Removes jobs never submitted; runs where the worker runs. */
  expiry: JobExpiry;
  /**
   * Stops the worker and the expiry sweep, then the signals. A job under way may end until
   * `finishBy` aborts; then it goes back to the queue. Answers whether one did.
   */
  close(finishBy?: AbortSignal): Promise<boolean>;
}

/** The processor and the worker that runs the queue, started unless this process only answers the API. */
export async function setUpBulk({
  database,
  blobStore,
  referenceData,
  suppressionLists,
  mailer,
  publicUrl,
  logger,
  runWorker,
  requireDnc,
  scrubThreads = 1,
  unsubmittedJobTtlSeconds,
  onJobEnd,
  carrierLookups = null,
  alsoRemove,
  tracer = null,
}: BulkOptions): Promise<BulkServices> {
  const processor = new CsvJobProcessor(
    blobStore,
    referenceData,
    requireDnc,
    SMALL_FILE_BYTES,
    suppressionLists,
    { threads: scrubThreads, fromBytes: PARALLEL_FILE_BYTES },
    carrierLookups,
  );
  const signals = await JobSignals.open(database, logger);
  const worker = new BulkWorker({
    db: database.db,
    processor,
    mailer,
    logger,
    publicUrl,
    signals,
    onJobEnd,
    tracer,
  });
  const expiry = new JobExpiry({
    db: database.db,
    blobStore,
    logger,
    ttlSeconds: unsubmittedJobTtlSeconds,
    everySeconds: Math.min(3600, unsubmittedJobTtlSeconds),
    onJobEnd,
    alsoRemove,
  });
  if (runWorker) {
    // The embedded database belongs to this process alone: whatever it left processing, it died doing.
    if (database.kind === 'pglite') await requeueOrphanedJobs(database.db);
    worker.start();
    expiry.start();
  }
  return {
    processor,
    onJobEnd,
    worker,
    signals,
    expiry,
    async close(finishBy) {
      const [cut] = await Promise.all([worker.stop(finishBy), expiry.stop()]);
      await signals.close();
      return cut;
    },
  };
}
