import { routes } from '@scrub/contract';
import { rotateApiKey } from '../auth/api-keys.js';
import type { ServerContext } from '../context.js';

/** The caller's personal API key: a new one replaces the old, which stops working at once. */
export function registerApiKey({ registry, database, apiKeyOwners }: ServerContext): void {
  registry.add(routes.rotateApiKey, async ({ principal }) => {
    const issued = await rotateApiKey(database.db, principal.profileId);
    apiKeyOwners.forget(principal.profileId);
    return issued;
  });
}
