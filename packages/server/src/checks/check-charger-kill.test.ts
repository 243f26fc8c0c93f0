import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';

// kill -9 while single checks are being charged in groups: the built service, as an operator runs
// it, on each database. Whatever moment the kill lands, every check the client was told it paid
// for is in the ledger with the balance it was told, nothing it was refused is, and every balance
// equals its entries. Checks whose answer never arrived may or may not have been charged.

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');
const ACCOUNTS = 10;
/** Half the accounts run out of credits before the kill, so refusals race charges too. */
const creditsOf = (i: number) => (i % 2 === 0 ? 1_000_000 : 30);
const CLIENTS = 32;
/** Answers received before the kill: a second or two of checks. */
const ANSWERS_BEFORE_KILL = 600;

interface Service {
  child: ChildProcess;
  url: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** `scrub-server start`, built; resolves once it listens. */
async function start(env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, [bin, 'start'], {
    env: {
      ...process.env,
      SCRUB_PORT: '0',
      SCRUB_LOG_LEVEL: 'warn',
      SCRUB_BULK_WORKER: 'false',
      SCRUB_RATE_LIMIT_PER_KEY: '1000000/s',
      SCRUB_RATE_LIMIT_PER_ACCOUNT: '1000000/s',
      SCRUB_RATE_LIMIT_PER_ADDRESS: '1000000/s',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const at = /Scrub is running at (http:\/\/\S+)/.exec(stderr);
      if (at) resolve(at[1]!);
    });
    void exited.then((end) => reject(new Error(`scrub-server ended (${end}) before listening: ${stderr}`)));
  });
  return { child, url, exited };
}

interface Answer {
  account: number;
  number: string;
  status: number;
  body: { phone_number?: string; credits_deducted?: number; credits_remaining?: number | string };
}

/** Accounts with credits and API keys, made straight in the database before the service starts. */
async function seed(db: DatabaseHandle['db']): Promise<{ id: string; apiKey: string }[]> {
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const { id } = await ensureProfile(db, {
      sub: `kill-${i}`,
      email: `k${i}@example.com`,
      name: null,
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: id, delta: creditsOf(i), kind: 'grant' });
    accounts.push({ id, apiKey: (await rotateApiKey(db, id)).api_key });
  }
  return accounts;
}

/** Checks distinct numbers from `CLIENTS` clients until the service dies under them, which it does after `ANSWERS_BEFORE_KILL`. */
async function checkUntilKilled(service: Service, apiKeys: string[]) {
  const answers: Answer[] = [];
  const sent: string[] = [];
  let unanswered = 0;
  let killed = false;
  const client = async () => {
    while (!killed) {
      const n = sent.length;
      const account = n % ACCOUNTS;
      const number = `201${200 + Math.floor(n / 10_000)}${String(n % 10_000).padStart(4, '0')}`;
      sent.push(`+1${number}`);
      try {
        const res = await fetch(`${service.url}/verify?p=${number}`, {
          headers: { 'x-api-key': apiKeys[account]! },
        });
        answers.push({
          account,
          number: `+1${number}`,
          status: res.status,
          body: (await res.json()) as Answer['body'],
        });
      } catch {
        unanswered++;
        return;
      }
      if (answers.length === ANSWERS_BEFORE_KILL) {
        killed = true;
        service.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  expect(await service.exited).toBe('SIGKILL');
  return { answers, sent, unanswered };
}

/** What the ledger must show after the kill, given the answers the clients received. */
async function expectExact(
  db: DatabaseHandle['db'],
  accounts: { id: string }[],
  { answers, sent }: { answers: Answer[]; sent: string[] },
) {
  const entries = await db
    .selectFrom('credit_ledger')
    .select(['profile_id', 'reference', 'delta', 'balance_after'])
    .where('kind', '=', 'check')
    .orderBy('id')
    .execute();
  const entryOf = new Map(entries.map((entry) => [entry.reference, entry]));
  expect(entryOf.size).toBe(entries.length);
  // No charge for a check never asked for.
  const asked = new Set(sent);
  for (const entry of entries) expect(asked.has(entry.reference!)).toBe(true);
  const statuses = new Set(answers.map((answer) => answer.status));
  expect([...statuses].sort()).toEqual([200, 402]);
  for (const answer of answers) {
    const entry = entryOf.get(answer.number);
    if (answer.status === 402) expect(entry).toBeUndefined();
    else {
      // Told it was charged: it is in the ledger, with the balance the answer gave.
      expect(entry).toEqual({
        profile_id: accounts[answer.account]!.id,
        reference: answer.number,
        delta: -answer.body.credits_deducted!,
        balance_after: answer.body.credits_remaining,
      });
    }
  }
  for (const [i, { id }] of accounts.entries()) {
    const totals = await ledgerTotals(db, id);
    expect(totals.balance).toBe(totals.sum);
    let balance = creditsOf(i);
    for (const entry of entries.filter((e) => e.profile_id === id)) {
      balance += entry.delta;
      expect(entry.balance_after).toBe(balance);
    }
    expect(totals.balance).toBe(balance);
  }
}

/** Started again after the kill, the service still charges; then it stops as asked. */
async function restartAndStop(env: Record<string, string>, apiKey: string): Promise<void> {
  const again = await start(env);
  try {
    const res = await fetch(`${again.url}/verify?p=2019990000`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  } finally {
    again.child.kill('SIGKILL');
  }
}

describe.runIf(existsSync(bin))('kill -9 while checks are charged (built service)', () => {
  it('on the embedded database: no answered charge lost, no refused one kept, balances equal the ledger', async () => {
    const dataDir = tempDir('scrub-charge-kill-');
    const target = { kind: 'pglite' as const, dataDir: join(dataDir, 'pglite') };
    const setup = await openDatabase(target);
    await migrateToLatest(setup.db);
    const accounts = await seed(setup.db);
    await setup.close();
    const env = { SCRUB_DATA_DIR: dataDir };
    const run = await checkUntilKilled(
      await start(env),
      accounts.map((a) => a.apiKey),
    );
    expect(run.unanswered).toBeGreaterThan(0);
    await restartAndStop(env, accounts[0]!.apiKey);
    const after = await openDatabase(target);
    try {
      run.sent.push('+12019990000');
      await expectExact(after.db, accounts, run);
    } finally {
      await after.close();
    }
  }, 120_000);

  const postgres = testDatabases().find((database) => database.kind === 'postgres');
  it.runIf(postgres)(
    'on PostgreSQL: no answered charge lost, no refused one kept, balances equal the ledger',
    async () => {
      const database = await postgres!.open();
      try {
        await migrateToLatest(database.db);
        const accounts = await seed(database.db);
        const env = { DATABASE_URL: database.url!, SCRUB_DATA_DIR: tempDir('scrub-charge-kill-') };
        const run = await checkUntilKilled(
          await start(env),
          accounts.map((a) => a.apiKey),
        );
        expect(run.unanswered).toBeGreaterThan(0);
        await restartAndStop(env, accounts[0]!.apiKey);
        run.sent.push('+12019990000');
        await expectExact(database.db, accounts, run);
      } finally {
        await database.close();
      }
    },
    120_000,
  );
});
