// What the in-process benches share: a server whose rate limits are raised (not switched off, so a
// run still pays for counting every request), and an account holding credits with an API key.
import {
  applyLedgerEntry,
  ensureProfile,
  loadConfig,
  type RunningServer,
  rotateApiKey,
  type ServerConfig,
  startServer,
} from '@scrub/server';

export const RAISED_LIMITS = {
  SCRUB_RATE_LIMIT_PER_KEY: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ACCOUNT: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ADDRESS: '1000000/s',
};

/**
 * A server on a free port: on the PostgreSQL of `DATABASE_URL` if it is set, else on the embedded
 * database in memory, unless `overrides` say otherwise.
 */
export function startBenchServer(
  env: Record<string, string> = {},
  overrides: Partial<ServerConfig> = {},
): Promise<RunningServer> {
  const url = process.env.DATABASE_URL;
  const database = url ? { kind: 'postgres' as const, url } : { kind: 'pglite' as const, dataDir: null };
  return startServer(
    loadConfig(
      { SCRUB_LOG_LEVEL: 'silent', ...RAISED_LIMITS, ...env },
      { host: '127.0.0.1', port: 0, database, ...overrides },
    ),
    false,
  );
}

/** A new account granted `credits`, and its API key. */
export async function benchAccount(
  server: RunningServer,
  { sub, email, credits }: { sub: string; email: string; credits: number },
): Promise<{ profileId: string; apiKey: string }> {
  const { db } = server.database;
  const profile = await ensureProfile(db, { sub, email, name: 'Bench', role: 'User' });
  await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
  const { api_key: apiKey } = await rotateApiKey(db, profile.id);
  return { profileId: profile.id, apiKey };
}
