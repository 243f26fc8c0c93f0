import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/config.js';
import type { Mailer } from '../mail/mailer.js';
import { DatasetStore } from '../reference-data/dataset-store.js';
import type { DatabaseHandle } from '../storage/database.js';
import { FolderInbox } from './folder-inbox.js';
import { InboxClaims } from './inbox-claims.js';
import type { InboxFolder } from './inbox-folder.js';
import { RegistryInbox } from './registry-inbox.js';

/** A claim older than this belongs to a process that died mid-import: as long as an import may wait for the lock. */
const CLAIM_STALE_MS = 3600_000;

/**
 * Starts watching the registry inbox when SCRUB_DNC_INBOX is set, in a process that runs the bulk
 * worker; stopped when the app closes.
 */
export async function setUpRegistryInbox(
  app: FastifyInstance,
  options: { config: ServerConfig; database: DatabaseHandle; mailer: Mailer; logger: Logger | false },
): Promise<RegistryInbox | null> {
  const { config, database, mailer, logger } = options;
  const { target, pollSeconds, ftcAccount } = config.registryInbox;
  if (target === null || !config.runBulkWorker) return null;
  let folder: InboxFolder;
  if (target.kind === 's3') {
    // Loaded only for S3: the AWS SDK costs the process about 40 MB.
    const { S3Inbox } = await import('./s3-inbox.js');
    folder = new S3Inbox(target);
  } else {
    folder = new FolderInbox(target.dir);
  }
  const inbox = new RegistryInbox({
    folder,
    store: new DatasetStore(config.dataDir),
    claims: new InboxClaims(database.db, CLAIM_STALE_MS),
    mailer,
    to: config.adminEmails.length > 0 ? config.adminEmails : [config.contactEmail],
    logger,
    pollMs: pollSeconds * 1000,
    ftcAccount,
  });
  inbox.start();
  app.addHook('onClose', () => inbox.stop());
  return inbox;
}
