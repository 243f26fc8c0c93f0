import type { Logger } from 'pino';
import type { ServerContext } from '../context.js';
import { registerBulkJobs } from './bulk-routes.js';
import { BulkWorker } from './bulk-worker.js';
import { CsvJobProcessor } from './csv-processor.js';
import { registerFiles } from './file-routes.js';
import { requeueOrphanedJobs } from './job-store.js';

export interface BulkOptions {
  logger: Logger | false;
  /** Run jobs in this process (default). Off for processes that only answer the API. */
  runWorker: boolean;
}

/** Bulk jobs, the export and file pages, and the worker that runs the queue. */
export async function setUpBulk(
  context: ServerContext,
  { logger, runWorker }: BulkOptions,
): Promise<BulkWorker> {
  const { database, files, referenceData, mailer, publicUrl } = context;
  const processor = new CsvJobProcessor(files, referenceData);
  const worker = new BulkWorker({ db: database.db, processor, mailer, logger, publicUrl });
  registerBulkJobs(context, { processor, worker });
  registerFiles(context);
  if (runWorker) {
    // The embedded database belongs to this process alone: whatever it left processing, it died doing.
    if (database.kind === 'pglite') await requeueOrphanedJobs(database.db);
    worker.start();
  }
  return worker;
}
