import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { latestCode, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';
import { rotateQuestion } from '../actions/key.js';

/**
 * Accounts from the command line against the real service in this process: sign-up, the code
 * from its outbox, sign-in, the session file, whoami, the API key, sign-out.
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server?.close());
afterEach(() => {
  vi.useRealTimers();
});

const PASSWORD = 'Correct-Horse-9';
let counter = 0;
const newEmail = () => `cli${++counter}.${Date.now()}@example.com`;

function fresh() {
  const dir = tempConfigDir();
  return { dir, env: { SCRUB_CONFIG_DIR: dir, SCRUB_API_URL: server.url } as NodeJS.ProcessEnv };
}

const configFile = (dir: string) => join(dir, 'config.json');
const readConfig = (dir: string) =>
  JSON.parse(readFileSync(configFile(dir), 'utf8')) as {
    profiles?: Record<string, { api_key?: string }>;
    sessions?: Record<string, Record<string, string>>;
  };

async function signUpAndConfirm(env: NodeJS.ProcessEnv, email = newEmail()): Promise<string> {
  const signup = await scrub(['signup', '--email', email, '--name', 'Pat Doe', '--password-stdin'], env, {
    stdin: `${PASSWORD}\n`,
  });
  expect(signup.code, signup.stderr).toBe(0);
  const confirm = await scrub(['confirm', '--email', email, '--code', await latestCode(server, email)], env);
  expect(confirm.code, confirm.stderr).toBe(0);
  return email;
}

async function signedIn() {
  const { dir, env } = fresh();
  const email = await signUpAndConfirm(env);
  const login = await scrub(['login', '--email', email, '--password-stdin'], env, { stdin: PASSWORD });
  expect(login.code, login.stderr).toBe(0);
  return { dir, env, email };
}

describe('from sign-up to an API key', () => {
  it('signs up, confirms, signs in, rotates a key, signs out, and the key works on its own', async () => {
    const { dir, env } = fresh();
    const email = newEmail();

    const signup = await scrub(['signup', '--email', email, '--name', 'Pat Doe', '--password-stdin'], env, {
      stdin: `${PASSWORD}\n`,
    });
    expect(signup).toMatchObject({ code: 0, stdout: '' });
    expect(signup.stderr).toContain(
      'Account created successfully! Please check your email for verification code.',
    );
    expect(signup.stderr).toContain(`scrub confirm --email ${email}`);

    const confirm = await scrub(
      ['confirm', '--email', email, '--code', await latestCode(server, email)],
      env,
    );
    expect(confirm).toMatchObject({ code: 0, stdout: '' });
    expect(confirm.stderr).toContain('Email confirmed successfully!');

    const login = await scrub(['login', '--email', email, '--password-stdin'], env, {
      stdin: `${PASSWORD}\n`,
    });
    expect(login).toMatchObject({ code: 0, stdout: '' });
    expect(login.stderr).toBe(`Signed in as ${email} (profile "default").\n`);
    // Signing in made the account on the service, so the operator can grant it credits right away.
    const account = await server.database.db
      .selectFrom('profiles')
      .select('credits')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(account).toEqual({ credits: 0 });
    expect(statSync(configFile(dir)).mode & 0o777).toBe(0o600);
    expect(Object.keys(readConfig(dir).sessions?.default ?? {})).toContain('scrub.identity');

    const whoami = await scrub(['whoami'], env);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toMatch(new RegExp(`^Email +${email.replace(/\./g, '\\.')}$`, 'm'));
    expect(whoami.stdout).toMatch(/^Name +Pat Doe$/m);
    expect(whoami.stdout).toMatch(/^Plan +Pay as you go \(active\)$/m);
    expect(whoami.stdout).toMatch(/^Credits +0$/m);
    expect(whoami.stdout).toMatch(/^Credential +session \(profile "default"\)$/m);

    const rotate = await scrub(['key', 'rotate', '--yes'], env);
    expect(rotate.code, rotate.stderr).toBe(0);
    expect(rotate.stdout).toMatch(/^scrub_[A-Za-z0-9]{40}\n$/);
    const key = rotate.stdout.trim();
    expect(rotate.stderr).toContain('This is the ONLY time you will see this API key.');
    expect(readConfig(dir).profiles?.default?.api_key).toBe(key);

    const logout = await scrub(['logout'], env);
    expect(logout).toMatchObject({ code: 0, stdout: '' });
    expect(readConfig(dir).sessions).toEqual({});

    const afterLogout = await scrub(['--json', 'account'], env);
    expect(afterLogout.code, afterLogout.stderr).toBe(0);
    expect(JSON.parse(afterLogout.stdout)).toMatchObject({
      credential: 'saved key',
      profile: 'default',
      user: { email, api_key_last4: key.slice(-4) },
    });

    // A CI job: the key from the environment, nothing on disk.
    const ci = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: key };
    const credits = await scrub(['credits'], ci);
    expect(credits.code, credits.stderr).toBe(0);
    expect(credits.stdout).toMatch(/^Credits +0$/m);
    expect(JSON.parse((await scrub(['--json', 'credits'], ci)).stdout)).toMatchObject({
      credits: 0,
      credits_remaining: 0,
      has_unlimited: false,
    });
    expect(JSON.parse((await scrub(['--json', 'account'], ci)).stdout).credential).toBe('SCRUB_API_KEY');
  });

  it('prefers SCRUB_API_KEY to the session, and the session to the saved key', async () => {
    const { env } = await signedIn();
    const rotated = await scrub(['key', 'rotate', '--yes'], env);
    const key = rotated.stdout.trim();

    expect(JSON.parse((await scrub(['--json', 'account'], env)).stdout).credential).toBe('session');
    const withEnv = await scrub(['--json', 'account'], { ...env, SCRUB_API_KEY: key });
    expect(JSON.parse(withEnv.stdout).credential).toBe('SCRUB_API_KEY');
  });

  it('keeps the session between runs, refreshing an expired ID token on its own', async () => {
    const { dir, env, email } = await signedIn();
    const tokensBefore = JSON.stringify(readConfig(dir).sessions?.default);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    const whoami = await scrub(['account'], env);

    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toContain(email);
    expect(JSON.stringify(readConfig(dir).sessions?.default)).not.toBe(tokensBefore);
    expect(statSync(configFile(dir)).mode & 0o777).toBe(0o600);
  });

  it('ends a session whose refresh is refused with exit 3, and removes it', async () => {
    const { dir, env, email } = await signedIn();
    const other = fresh().env;
    await scrub(['login', '--email', email, '--password-stdin'], other, { stdin: PASSWORD });
    expect((await scrub(['logout', '--everywhere'], other)).stderr).toContain('Signed out everywhere');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    const whoami = await scrub(['account'], env);

    expect(whoami.code).toBe(3);
    expect(whoami.stderr).toBe(
      'error: Session expired, so it was removed: sign in again with scrub login.\n',
    );
    expect(readConfig(dir).sessions).toEqual({});
    expect((await scrub(['account'], env)).stderr).toContain('Not signed in (profile "default")');
  });
});

describe('scrub login', () => {
  it('exits 3 for a wrong password, with the service message', async () => {
    const { env } = fresh();
    const email = await signUpAndConfirm(env);

    const result = await scrub(['login', '--email', email, '--password-stdin'], env, {
      stdin: 'Wrong-Horse-9',
    });

    expect(result).toEqual({ code: 3, stdout: '', stderr: 'error: Incorrect username or password.\n' });
  });

  it('exits 3 for an unconfirmed account, saying to confirm first and how', async () => {
    const { env } = fresh();
    const email = newEmail();
    await scrub(['signup', '--email', email, '--password-stdin'], env, { stdin: PASSWORD });

    const result = await scrub(['--json', 'login', '--email', email, '--password-stdin'], env, {
      stdin: PASSWORD,
    });

    expect(result.code).toBe(3);
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe('UserNotConfirmedException');
    expect(error.message).toContain(
      'Please confirm your email first. Check your inbox for the verification code.',
    );
    expect(error.message).toContain(`scrub confirm --email ${email}`);
  });

  it('never asks without a terminal, or with --no-input: exit 2 saying what to pass', async () => {
    const { env } = fresh();
    const piped = await scrub(['login', '--email', 'pat@example.com'], env);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe(
      'error: scrub login needs a password: pipe it with --password-stdin, or run it at a terminal to be asked (stdin is not a terminal, so scrub cannot ask)\n',
    );

    const noInput = await scrub(['--no-input', 'login', '--email', 'pat@example.com'], env, { answers: [] });
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain('--no-input was given');
    expect(noInput.prompts).toEqual([]);

    const noEmail = await scrub(['login', '--password-stdin'], env, { stdin: PASSWORD });
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('scrub login needs --email <address>');
  });

  it('asks for the e-mail and the password at a terminal', async () => {
    const { env } = fresh();
    const email = await signUpAndConfirm(env);

    const result = await scrub(['login'], env, { answers: [email, PASSWORD] });

    expect(result.code, result.stderr).toBe(0);
    expect(result.prompts).toEqual(['Email', 'Password']);
  });

  it('refuses a password typed at a terminal through --password-stdin, and a bad e-mail', async () => {
    const { env } = fresh();
    const tty = await scrub(['login', '--email', 'pat@example.com', '--password-stdin'], env, {
      stdinIsTTY: true,
    });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain('--password-stdin reads a pipe, and stdin is a terminal here');

    const bad = await scrub(['login', '--email', 'pat@example', '--password-stdin'], env, {
      stdin: PASSWORD,
    });
    expect(bad).toMatchObject({ code: 2, stderr: 'error: Invalid email address\n' });
  });
});

describe('scrub confirm', () => {
  it('says a wrong code is wrong, and sends a new one with --resend', async () => {
    const { env } = fresh();
    const email = newEmail();
    await scrub(['signup', '--email', email, '--password-stdin'], env, { stdin: PASSWORD });
    const code = await latestCode(server, email);

    const wrong = await scrub(
      ['confirm', '--email', email, '--code', code === '000000' ? '000001' : '000000'],
      env,
    );
    expect(wrong).toMatchObject({ code: 1, stderr: 'error: Invalid code. Please check and try again.\n' });
    const malformed = await scrub(['confirm', '--email', email, '--code', '12345'], env);
    expect(malformed).toMatchObject({ code: 2, stderr: 'error: The code is the 6 digits from the e-mail\n' });

    const resend = await scrub(['confirm', '--email', email, '--resend'], env);
    expect(resend.stderr).toBe('New verification code sent to your email!\n');
    const again = await scrub(['confirm', '--email', email], env, {
      answers: [await latestCode(server, email)],
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.prompts).toEqual([`Code e-mailed to ${email}`]);
  });
});

describe('scrub key rotate', () => {
  it('asks first, as the API page does; without a terminal it needs --yes', async () => {
    const { env, dir } = await signedIn();

    const piped = await scrub(['key', 'rotate'], env);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('pass --yes');

    const declined = await scrub(['key', 'rotate'], env, { answers: [false] });
    expect(declined.prompts).toEqual([rotateQuestion]);
    expect(declined).toMatchObject({ code: 1, stdout: '' });
    expect(readConfig(dir).profiles?.default?.api_key).toBeUndefined();

    const accepted = await scrub(['--json', 'key', 'rotate'], env, { answers: [true] });
    expect(accepted.prompts).toEqual([
      'Generating a new API key will invalidate your current key. Continue?',
    ]);
    const rotation = JSON.parse(accepted.stdout) as {
      api_key: string;
      last4: string;
      saved_in_profile: string;
    };
    expect(rotation).toMatchObject({ last4: rotation.api_key.slice(-4), saved_in_profile: 'default' });
  });

  it('does not save the key with --no-save, and then the old saved key is dead', async () => {
    const { env, dir } = await signedIn();
    const first = (await scrub(['key', 'rotate', '--yes'], env)).stdout.trim();

    const second = await scrub(['key', 'rotate', '--yes', '--no-save'], env);

    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Not saved (--no-save)');
    expect(readConfig(dir).profiles?.default?.api_key).toBe(first);
    await scrub(['logout'], env);
    const stale = await scrub(['credits'], env);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('The API key is not valid');
  });
});

describe('without credentials', () => {
  it('whoami, credits and key rotate exit 3 saying how to sign in; logout is a no-op', async () => {
    const { env } = fresh();
    for (const args of [['account'], ['credits'], ['key', 'rotate', '--yes']]) {
      const result = await scrub(args, env);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('Not signed in (profile "default"). Sign in with scrub login');
    }
    expect(await scrub(['logout'], env)).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Not signed in (profile "default").\n',
    });
  });
});
