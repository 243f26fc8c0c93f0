import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';

const Env = z.object({
  SCRUB_CHECK_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
});

/** Days the phone log keeps a check (SCRUB_CHECK_LOG_DAYS, default 90); the expiry sweep removes older ones. */
export function loadCheckLogDays(env: NodeJS.ProcessEnv): number {
  const parsed = Env.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Phone log settings: ${z.prettifyError(parsed.error)}`);
  return parsed.data.SCRUB_CHECK_LOG_DAYS;
}
