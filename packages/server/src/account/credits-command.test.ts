import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { creditsCommand } from './credits-command.js';
import { ledgerTotals } from './ledger.js';
import { ensureProfile } from './profiles.js';

let database: DatabaseHandle;
let output: string;
let errors: string;

beforeEach(async () => {
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
  output = '';
  errors = '';
});
afterEach(() => database.close());

/** `scrub-server credits ...` against the test database; the command's own close is a no-op here. */
async function run(...args: string[]) {
  const command = creditsCommand({
    open: async () => ({ ...database, close: async () => {} }),
    out: (text) => {
      output += text;
    },
  });
  for (const sub of [command, ...command.commands]) {
    sub.exitOverride().configureOutput({
      writeErr: (text) => {
        errors += text;
      },
    });
  }
  await command.parseAsync(args, { from: 'user' });
}

describe('scrub-server credits grant', () => {
  it('writes a grant to the ledger and prints the new balance', async () => {
    const profile = await ensureProfile(database.db, {
      sub: 's1',
      email: 'Dev@Example.com',
      name: null,
      role: 'User',
    });
    await run('grant', 'dev@example.com', '2500');
    await run('grant', 'DEV@example.com', '1000000', '--note', 'local testing');
    expect(output).toBe(
      'Granted 2,500 credits to Dev@Example.com. Balance: 2,500.\nGranted 1,000,000 credits to Dev@Example.com. Balance: 1,002,500.\n',
    );
    expect(await ledgerTotals(database.db, profile.id)).toEqual({
      balance: 1_002_500,
      sum: 1_002_500,
      entries: 2,
    });
    const entries = await database.db
      .selectFrom('credit_ledger')
      .select(['kind', 'note'])
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      { kind: 'grant', note: null },
      { kind: 'grant', note: 'local testing' },
    ]);
  });

  it('says the person must sign in once when no account has that e-mail', async () => {
    await expect(run('grant', 'nobody@example.com', '10')).rejects.toThrow(/sign in once/);
  });

  it.each(['0', '-5', '1.5', 'ten'])('refuses %s credits', async (amount) => {
    await expect(run('grant', 'dev@example.com', amount)).rejects.toThrow();
    expect(errors).toMatch(/whole number of credits/);
  });
});

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');

describe.runIf(existsSync(bin))('scrub-server credits grant (built)', () => {
  it('grants on the embedded database, and refuses while another process holds it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'scrub-grant-'));
    const env = { ...process.env, SCRUB_DATA_DIR: home, SCRUB_LOG_LEVEL: 'silent' };
    const grant = () =>
      spawnSync(process.execPath, [bin, 'credits', 'grant', 'ops@example.com', '700'], {
        env,
        encoding: 'utf8',
      });
    try {
      const missing = grant();
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/No account with the e-mail ops@example.com.*sign in once/);

      const held = await openDatabase({ kind: 'pglite', dataDir: join(home, 'pglite') });
      await ensureProfile(held.db, { sub: 'ops', email: 'ops@example.com', name: null, role: 'User' });
      const busy = grant();
      expect(busy.status).toBe(1);
      expect(busy.stderr).toMatch(/in use by process \d+/);
      await held.close();

      const granted = grant();
      expect(granted.stderr).toBe('');
      expect(granted.stdout).toBe('Granted 700 credits to ops@example.com. Balance: 700.\n');
      expect(granted.status).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
