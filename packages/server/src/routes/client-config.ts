import { routes } from '@scrub/contract';
import type { ServerContext } from '../context.js';
import { IDENTITY_PATH } from '../identity/protocol.js';

/** Payment settings join this answer as their provider is built. */
export function registerClientConfig({ registry, config, publicUrl }: ServerContext): void {
  registry.add(routes.config, async () => ({
    identity: config.cognito
      ? {
          provider: 'cognito' as const,
          region: config.cognito.region,
          user_pool_id: config.cognito.userPoolId,
          client_id: config.cognito.clientId,
          endpoint: null,
        }
      : {
          provider: 'local' as const,
          region: config.localIdentity.userPoolId.split('_')[0]!,
          user_pool_id: config.localIdentity.userPoolId,
          client_id: config.localIdentity.clientId,
          endpoint: `${publicUrl()}${IDENTITY_PATH}`,
        },
    payments: null,
    limits: { max_upload_bytes: config.maxUploadBytes },
  }));
}
