import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';

const Env = z.object({
  SCRUB_FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
});

/**
 * Days a file's upload and result are kept after the file was created (SCRUB_FILE_RETENTION_DAYS,
 * default 90); the bulk worker's expiry sweep then removes them from the file store.
 */
export function loadFileRetentionDays(env: NodeJS.ProcessEnv): number {
  const parsed = Env.safeParse(env);
  if (!parsed.success) throw new ConfigError(`File retention settings: ${z.prettifyError(parsed.error)}`);
  return parsed.data.SCRUB_FILE_RETENTION_DAYS;
}
