import {
  applyLedgerEntry,
  ensureProfile,
  LOCAL_KEYS,
  loadConfig,
  type RunningServer,
  rotateApiKey,
  startServer,
} from '@scrub/server';

export type { RunningServer } from '@scrub/server';

/**
 * Test suites sign up many accounts, type wrong passwords and check numbers as fast as they can,
 * all from 127.0.0.1: the limits are raised for them (configured, not switched off, so every
 * request is still counted). Pass a setting in `env` to test a limit itself.
 */
export const TEST_LIMITS = {
  SCRUB_RATE_LIMIT_PER_KEY: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ACCOUNT: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ADDRESS: '1000000/s',
  SCRUB_SIGN_UPS_PER_ADDRESS: '100000/h',
  SCRUB_SIGN_IN_FAILURES_PER_ADDRESS: '100000/h',
};

/** The real service in this process, on an in-memory database and a free port. Tests only. */
export function startLocalServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(
    loadConfig({ ...TEST_LIMITS, ...env }, { port: 0, database: { kind: 'pglite', dataDir: null } }),
    false,
  );
}

/** The newest 6-digit code mailed to this address, read from the outbox as `scrub-server mail` shows it. */
export async function latestCode(server: RunningServer, email: string): Promise<string> {
  const mail = await server.database.db
    .selectFrom('mail_outbox')
    .select('subject')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const code = /code: (\d{6})\b/.exec(mail?.subject ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/**
 * A new account holding `credits`, made in the database as the operator's commands would (no route
 * grants credits yet), and its API key.
 */
export async function accountWithApiKey(
  server: RunningServer,
  { sub, email, credits }: { sub: string; email: string; credits: number },
): Promise<string> {
  const { db } = server.database;
  const profile = await ensureProfile(db, { sub, email, name: '', role: 'User' });
  if (credits > 0) await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, profile.id);
  return api_key;
}

/**
 * Saves one of Stripe's test cards (`pm_card_authenticationRequired`...) on the account's payment
 * customer straight at the built-in provider, as a finished card form would have, and answers its
 * id: `PUT /payment-method` picks only among saved cards. The account has saved a card before.
 */
export async function saveTestCard(
  server: RunningServer,
  email: string,
  testPaymentMethod: string,
): Promise<string> {
  const { payment_customer_id } = await server.database.db
    .selectFrom('profiles')
    .select('payment_customer_id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const res = await fetch(`${server.url}/_stripe/v1/payment_methods/${testPaymentMethod}/attach`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_KEYS.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `customer=${payment_customer_id}`,
  });
  if (res.status !== 200)
    throw new Error(`attaching ${testPaymentMethod}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}
