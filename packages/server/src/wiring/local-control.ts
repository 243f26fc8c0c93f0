import type { FastifyInstance } from 'fastify';
import { grantCreditsOperation } from '../account/grant-credits.js';
import { backupOperation } from '../backup/backup-operation.js';
import type { ServerConfig } from '../config/config.js';
import { type LocalOperation, openLocalControl } from '../local-control/local-control.js';
import { readOutboxOperation } from '../mail/outbox-operation.js';
import { findAccountOperation } from '../reference-data/account-lookup.js';
import type { DatabaseHandle } from '../storage/database.js';

/** Every operation an operator command may run through the server (under `/_local/`). */
export const localOperations: readonly LocalOperation<unknown, unknown>[] = [
  readOutboxOperation,
  grantCreditsOperation,
  findAccountOperation,
];

/** Opens the operator channel when this server holds an embedded database on disk (with `backup`, which needs the database itself); nothing on PostgreSQL. */
export function setUpLocalControl(
  app: FastifyInstance,
  config: ServerConfig,
  database: DatabaseHandle,
): void {
  if (config.database.kind !== 'pglite' || !config.database.dataDir || !database.dumpEmbedded) return;
  const backup = backupOperation({ dataDir: config.dataDir, dumpDatabase: database.dumpEmbedded });
  openLocalControl(app, database.db, config.dataDir, [...localOperations, backup]);
}
