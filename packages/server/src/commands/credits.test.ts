import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callPool } from '../../test/cognito-client.js';
import { tempDir } from '../../test/temp-dirs.js';
import { ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { startServer } from '../server.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { type CreditsCommandIo, creditsCommand } from './credits.js';

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

/** `scrub-server credits ...` with these settings, opening the database as the command does. */
async function runWith(io: Omit<CreditsCommandIo, 'out'>, ...args: string[]) {
  const command = creditsCommand({
    ...io,
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

/** `scrub-server credits ...` against the test database; the command's own close is a no-op here. */
const run = (...args: string[]) =>
  runWith(
    {
      config: () => loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-grant-') }),
      open: async () => ({ ...database, close: async () => {} }),
    },
    ...args,
  );

/** The command as `scrub-server` runs it, on this data directory. */
const runOn = (config: ServerConfig, ...args: string[]) =>
  runWith({ config: () => config, open: (c) => openDatabase(c.database) }, ...args);

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

describe('scrub-server credits grant beside a running server', () => {
  it('goes through the server, which holds the embedded database, and the balance shows at once', async () => {
    const config = loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-grant-'), SCRUB_PORT: '0' });
    const server = await startServer(config, false);
    try {
      const db = server.database.db;
      const profile = await ensureProfile(db, {
        sub: 'p1',
        email: 'Pat@Example.com',
        name: null,
        role: 'User',
      });
      const { api_key } = await rotateApiKey(db, profile.id);
      // Opening the database here would fail: this process's server holds it.
      await runOn(config, 'grant', 'pat@example.com', '1500', '--note', 'trial');
      expect(output).toBe('Granted 1,500 credits to Pat@Example.com. Balance: 1,500.\n');
      const res = await fetch(`${server.url}/credits`, { headers: { 'x-api-key': api_key } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ credits: 1500, credits_remaining: 1500 });
      expect(await ledgerTotals(db, profile.id)).toEqual({ balance: 1500, sum: 1500, entries: 1 });
      expect(await db.selectFrom('credit_ledger').select(['kind', 'note', 'reference']).execute()).toEqual([
        { kind: 'grant', note: 'trial', reference: 'scrub-server credits grant' },
      ]);

      // The server's refusal comes back with the same message as the direct path's.
      await expect(runOn(config, 'grant', 'nobody@example.com', '5')).rejects.toThrow(
        /^No account with the e-mail nobody@example.com has used Scrub yet.*sign in once/,
      );
    } finally {
      await server.close();
    }
    expect(existsSync(join(config.dataDir, 'local-control.json'))).toBe(false);
  });

  it('ignores a channel file left by a server that died, and opens the database itself', async () => {
    const config = loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-grant-') });
    const direct = await openDatabase(config.database);
    await migrateToLatest(direct.db);
    await ensureProfile(direct.db, { sub: 'p2', email: 'sam@example.com', name: null, role: 'User' });
    await direct.close();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      join(config.dataDir, 'local-control.json'),
      JSON.stringify({ url: 'http://127.0.0.1:9', token: 'x'.repeat(43), pid: dead }),
      { mode: 0o600 },
    );
    await runOn(config, 'grant', 'sam@example.com', '40');
    expect(output).toBe('Granted 40 credits to sam@example.com. Balance: 40.\n');
  });
});

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');

describe.runIf(existsSync(bin))('scrub-server credits grant (built)', () => {
  it('grants on the embedded database, and refuses while another process (not a server) holds it', async () => {
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

  it('grants beside a running server, through it: start, sign up, grant, as the README goes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'scrub-grant-'));
    const env = { ...process.env, SCRUB_DATA_DIR: home, SCRUB_PORT: '0', SCRUB_LOG_LEVEL: 'silent' };
    const serverBin = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    let server: ChildProcess | undefined;
    try {
      server = spawn(process.execPath, [bin, 'start'], { env, stdio: 'ignore' });
      const channelFile = join(home, 'local-control.json');
      for (let waited = 0; !existsSync(channelFile); waited += 100) {
        if (waited > 60_000 || server.exitCode !== null) throw new Error('the server did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { url } = JSON.parse(readFileSync(channelFile, 'utf8')) as { url: string };
      const { identity } = (await (await fetch(`${url}/config`)).json()) as {
        identity: { endpoint: string; client_id: string };
      };
      const email = 'newcomer@example.com';
      const password = 'Good-Password-1';
      const pool = (operation: string, body: object) =>
        callPool(identity.endpoint, operation, { ClientId: identity.client_id, ...body });
      expect((await pool('SignUp', { Username: email, Password: password })).status).toBe(200);
      const mail = serverBin('mail', '--to', email, '--last', '--json');
      expect(mail.status).toBe(0);
      const code = /code: (\d{6})/.exec(JSON.parse(mail.stdout).subject)?.[1];
      expect((await pool('ConfirmSignUp', { Username: email, ConfirmationCode: code })).status).toBe(200);
      const signedIn = await pool('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      });
      const idToken = (signedIn.body.AuthenticationResult as { IdToken: string }).IdToken;
      const credits = async () => {
        const res = await fetch(`${url}/credits`, { headers: { authorization: `Bearer ${idToken}` } });
        return ((await res.json()) as { credits: number }).credits;
      };
      expect(await credits()).toBe(0);

      const granted = serverBin('credits', 'grant', email, '5000', '--note', 'welcome');
      expect(granted.stderr).toBe('');
      expect(granted.stdout).toBe(`Granted 5,000 credits to ${email}. Balance: 5,000.\n`);
      expect(granted.status).toBe(0);
      expect(await credits()).toBe(5000);

      const missing = serverBin('credits', 'grant', 'nobody@example.com', '1');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(
        /^scrub-server: No account with the e-mail nobody@example.com.*sign in once/,
      );

      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(channelFile)).toBe(false);
    } finally {
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(home, { recursive: true, force: true });
    }
  }, 90_000);
});
