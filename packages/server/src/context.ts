import type { ServerConfig } from './config.js';
import type { RouteRegistry } from './http/route-registry.js';
import type { IdentityPool } from './identity/identity-pool.js';
import type { Mailer } from './mail/mailer.js';
import type { DatabaseHandle } from './storage/database.js';

/** What route modules are given: settings, storage and the registry to add their routes to. */
export interface ServerContext {
  config: ServerConfig;
  database: DatabaseHandle;
  registry: RouteRegistry;
  /** Versions of the reference data answering checks, by dataset name. */
  referenceData: () => Record<string, string>;
  /** Where clients reach the service: SCRUB_PUBLIC_URL or http://localhost:<listening port>. */
  publicUrl: () => string;
  /** Sends (and always keeps) e-mail. */
  mailer: Mailer;
  /** The built-in user pool; null when an Amazon Cognito pool is configured. */
  identity: IdentityPool | null;
}
