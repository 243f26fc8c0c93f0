import { routes } from '@scrub/contract';
import type { ServerContext } from '../context.js';

/** Identity and payment settings join this answer as their providers are built. */
export function registerClientConfig({ registry, config }: ServerContext): void {
  registry.add(routes.config, async () => ({
    identity: null,
    payments: null,
    limits: { max_upload_bytes: config.maxUploadBytes },
  }));
}
