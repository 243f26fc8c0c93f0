import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';

/**
 * Reassigned-number checks (`consent_date` on /verify, `consent_col` on bulk jobs): who answers
 * them and what one costs. Without a URL, the operator's imported disconnections answer
 * (`scrub-server data import disconnects`); with one, a query service such as the FCC's
 * Reassigned Numbers Database (through the operator's own access) or a reseller of it.
 */
export interface ReassignedSettings {
  /** Credits one reassigned-number answer costs, on top of the check (SCRUB_REASSIGNED_CREDITS, default 1). */
  credits: number;
  /** The query service (SCRUB_REASSIGNED_URL, SCRUB_REASSIGNED_KEY); null: the imported file answers. */
  http: { url: string; key: string; timeoutMs: number } | null;
}

const Env = z.object({
  SCRUB_REASSIGNED_CREDITS: z.coerce.number().int().min(0).max(1000).default(1),
  SCRUB_REASSIGNED_URL: z.url({ protocol: /^https?$/ }).optional(),
  SCRUB_REASSIGNED_KEY: z.string().min(1).optional(),
  SCRUB_REASSIGNED_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});

export function loadReassignedSettings(env: NodeJS.ProcessEnv): ReassignedSettings {
  const parsed = Env.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Reassigned-number settings: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  if (e.SCRUB_REASSIGNED_URL !== undefined && e.SCRUB_REASSIGNED_KEY === undefined) {
    throw new ConfigError(
      'SCRUB_REASSIGNED_URL is set without SCRUB_REASSIGNED_KEY: the query service needs its key.',
    );
  }
  return {
    credits: e.SCRUB_REASSIGNED_CREDITS,
    http:
      e.SCRUB_REASSIGNED_URL === undefined
        ? null
        : {
            url: e.SCRUB_REASSIGNED_URL,
            key: e.SCRUB_REASSIGNED_KEY!,
            timeoutMs: e.SCRUB_REASSIGNED_TIMEOUT_MS,
          },
  };
}
