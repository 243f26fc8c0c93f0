import type { ServerConfig } from './config.js';
import type { RouteRegistry } from './http/route-registry.js';
import type { DatabaseHandle } from './storage/database.js';

/** What route modules are given: settings, storage and the registry to add their routes to. */
export interface ServerContext {
  config: ServerConfig;
  database: DatabaseHandle;
  registry: RouteRegistry;
  /** Versions of the reference data answering checks, by dataset name. */
  referenceData: () => Record<string, string>;
}
