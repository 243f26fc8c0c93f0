import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';

/**
 * Prometheus metrics (docs/operations.md, Monitoring): served on a port of their own, never on
 * the public one. Off (null) unless SCRUB_METRICS_PORT is set.
 */
export interface MetricsSettings {
  /** The port `GET /metrics` answers on (SCRUB_METRICS_PORT); 0 picks a free one (tests). */
  port: number;
  /** The address it listens on (SCRUB_METRICS_HOST, default SCRUB_HOST's). */
  host: string | null;
}

const Env = z.object({
  SCRUB_METRICS_PORT: z.coerce.number().int('must be a port number').min(0).max(65_535).optional(),
  SCRUB_METRICS_HOST: z.string().min(1).optional(),
});

export function loadMetricsSettings(env: NodeJS.ProcessEnv): MetricsSettings | null {
  const parsed = Env.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Metrics settings: ${z.prettifyError(parsed.error)}`);
  const { SCRUB_METRICS_PORT: port, SCRUB_METRICS_HOST: host } = parsed.data;
  if (port === undefined) {
    if (host !== undefined) throw new ConfigError('SCRUB_METRICS_HOST is set without SCRUB_METRICS_PORT.');
    return null;
  }
  return { port, host: host ?? null };
}
