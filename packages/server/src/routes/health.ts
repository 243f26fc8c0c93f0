import { routes } from '@scrub/contract';
import type { ServerContext } from '../context.js';
import { isReachable } from '../storage/database.js';
import { serverVersion } from '../version.js';

export function registerHealth({ registry, database, referenceData }: ServerContext): void {
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
}
