import { routes } from '@scrub/contract';
import type { ServerContext } from '../context.js';
import { IDENTITY_PATH } from '../identity/protocol.js';
import { isReachable } from '../storage/database.js';
import { serverVersion } from '../version.js';

/** The service itself: its health, and the settings clients read instead of branching on the setup. */
export function registerService({
  registry,
  config,
  database,
  referenceData,
  publicUrl,
  payments,
}: ServerContext): void {
  const started = process.hrtime.bigint();
  registry.add(routes.health, async () => {
    const ok = await isReachable(database.db);
    return {
      // Degraded too while imported reference data cannot be loaded (checks are refused then).
      status: ok && referenceData.missing().length === 0 ? ('ok' as const) : ('degraded' as const),
      version: serverVersion,
      database: { kind: database.kind, ok },
      reference_data: referenceData.versions(),
      uptime_seconds: Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000,
    };
  });

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
    payments: {
      provider: payments.setup.provider.kind,
      publishable_key: payments.setup.provider.publishableKey,
    },
    limits: { max_upload_bytes: config.maxUploadBytes },
  }));
}
