/// <reference types="vitest/jsdom" />
import type { RunningServer } from '@scrub/server';
import { startLocalServer } from '@scrub/test-support/local-server';

/**
 * The real service on a free port, with the page at `path` on its origin, as when the service
 * serves the dashboard: the client (api/scrub-client.ts) takes the page's origin as the API, so
 * import it only after this. `env` is the service's settings (`SCRUB_ADMIN_EMAILS`).
 */
export async function startServiceForPage(
  path = '/',
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const server = await startLocalServer(env);
  jsdom.reconfigure({ url: `${server.url}${path}` });
  return server;
}
