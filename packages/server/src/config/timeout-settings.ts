import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';

/** Time limits on slow clients while the service runs, and on its shutdown (docs/operations.md, Shutdown). */
export interface TimeoutSettings {
  /** A request's headers must arrive within this (SCRUB_HEADERS_TIMEOUT_SECONDS); 408 and closed beyond. */
  headersMs: number;
  /** A whole request, headers and body, must arrive within this (SCRUB_REQUEST_TIMEOUT_SECONDS); 0: no limit. */
  requestMs: number;
  /** From SIGTERM, what requests in flight and a running job get to finish (SCRUB_SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
}

const Env = z.object({
  SCRUB_HEADERS_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(1, 'must be at least 1 second')
    .max(3600, 'must be at most 3600 (an hour)')
    .default(60),
  SCRUB_REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0, 'must be 0 (no limit) or a number of seconds')
    .max(86_400, 'must be at most 86400 (a day)')
    .default(300),
  SCRUB_SHUTDOWN_GRACE_SECONDS: z.coerce
    .number()
    .min(0, 'must be 0 (cut at once) or a number of seconds')
    .max(3600, 'must be at most 3600 (an hour)')
    .default(25),
});

export function loadTimeoutSettings(env: NodeJS.ProcessEnv): TimeoutSettings {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid settings: ${problems}`);
  }
  const e = parsed.data;
  if (
    e.SCRUB_REQUEST_TIMEOUT_SECONDS > 0 &&
    e.SCRUB_REQUEST_TIMEOUT_SECONDS < e.SCRUB_HEADERS_TIMEOUT_SECONDS
  ) {
    throw new ConfigError(
      'Invalid settings: SCRUB_REQUEST_TIMEOUT_SECONDS must be at least SCRUB_HEADERS_TIMEOUT_SECONDS (or 0): a request includes its headers',
    );
  }
  return {
    headersMs: e.SCRUB_HEADERS_TIMEOUT_SECONDS * 1000,
    requestMs: e.SCRUB_REQUEST_TIMEOUT_SECONDS * 1000,
    shutdownGraceMs: e.SCRUB_SHUTDOWN_GRACE_SECONDS * 1000,
  };
}
