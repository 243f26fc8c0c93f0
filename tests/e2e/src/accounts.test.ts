import { describe, expect, it } from 'vitest';
import { type RunResult, type ScrubOptions, scrub, scrubServer, startServer, tempDir } from './harness.js';

const email = 'pat@example.com';
const password = 'Correct-Horse-9';
const ok = { code: 0, stdout: '' };

/** The value on a `Label  value` line of the CLI's table output. */
function field(result: RunResult, label: string): string | undefined {
  return new RegExp(`^${label} +(.+)$`, 'm').exec(result.stdout)?.[1];
}

describe('an account, from sign-up to an API key in a CI job', () => {
  // One story, as docs/cli.md's walkthrough runs it: every step needs the one before.
  it('signs up, confirms with the e-mailed code, signs in, rotates the key, and the key alone reads the credits', async () => {
    const server = await startServer();
    const config = tempDir('config-');
    const at = ['--api-url', server.url];
    const cli = (args: string[], options?: ScrubOptions, dir = config) =>
      scrub([...args, ...at], dir, options);
    const withPassword = { input: `${password}\n` };

    const signup = await cli(
      ['signup', '--email', email, '--name', 'Pat Doe', '--password-stdin'],
      withPassword,
    );
    expect(signup, 'scrub signup').toMatchObject(ok);
    expect(signup.stderr).toContain(
      'Account created successfully! Please check your email for verification code.',
    );

    // The code, as a person finds it: the real command, asking the running server for its outbox.
    const mail = await scrubServer(['mail', '--to', email, '--last'], server.dataDir);
    expect(mail, 'scrub-server mail').toMatchObject({ code: 0 });
    // The embedded setup keeps codes readable in its outbox, and says so on stderr.
    expect(mail.stderr).toContain('keeps verification and reset codes readable');
    expect(mail.stdout).toMatch(new RegExp(`^To: +${email}$`, 'm'));
    const code = /^Subject: Your Scrub verification code: (\d{6})$/m.exec(mail.stdout)?.[1];
    expect(code, `a 6-digit code in:\n${mail.stdout}`).toBeDefined();

    const confirm = await cli(['confirm', '--email', email, '--code', code ?? '']);
    expect(confirm, 'scrub confirm').toMatchObject(ok);

    const login = await cli(['login', '--email', email, '--password-stdin'], withPassword);
    expect(login, 'scrub login').toMatchObject({
      ...ok,
      stderr: `Signed in as ${email} (profile "default").\n`,
    });

    const account = await cli(['account']);
    expect(account, 'scrub account').toMatchObject({ code: 0, stderr: '' });
    expect(field(account, 'Email')).toBe(email);
    expect(field(account, 'Credential')).toBe('session (profile "default")');

    // Printed once, alone on stdout, as `scrub key rotate --yes > scrub.key` keeps it; saved in the profile.
    const rotate = await cli(['key', 'rotate', '--yes']);
    expect(rotate, 'scrub key rotate').toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^\S{12,}\n$/),
    });
    const key = rotate.stdout.trim();
    expect(rotate.stderr).toContain('This is the ONLY time you will see this API key.');
    expect(await cli(['config', 'get', 'api_key'])).toMatchObject({
      code: 0,
      stdout: `${key.slice(0, 4)}…${key.slice(-4)}\n`,
    });

    // A CI job: the key in SCRUB_API_KEY, a config directory that has never seen a session.
    const ci = (apiKey: string) =>
      cli(['credits'], { env: { SCRUB_API_KEY: apiKey } }, tempDir('ci-config-'));
    const credits = await ci(key);
    expect(credits, 'SCRUB_API_KEY=<key> scrub credits').toMatchObject({ code: 0, stderr: '' });
    expect(field(credits, 'Credits')).toBe(field(account, 'Credits'));
    expect(field(credits, 'Credits')).toMatch(/^(\d{1,3}(,\d{3})*|Unlimited)$/);
    expect(field(credits, 'Plan')).toBeDefined();

    // A second rotation: the first key stops working at once (exit 3: its credentials are refused).
    const second = await cli(['key', 'rotate', '--yes']);
    expect(second, 'second scrub key rotate').toMatchObject({ code: 0 });
    const newKey = second.stdout.trim();
    expect(newKey).not.toBe(key);
    const refused = await ci(key);
    expect(refused, 'the rotated-out key').toMatchObject({ code: 3, stdout: '' });
    expect(refused.stderr).toMatch(/^error: 401 The API key is not valid: .+ Sign in with scrub login/);
    expect(await ci(newKey), 'the new key').toMatchObject({ code: 0, stderr: '' });

    // A wrong password is refused with the identity provider's message (one try: five lock sign-in).
    const wrong = await cli(
      ['login', '--email', email, '--password-stdin'],
      { input: 'Wrong-Horse-9\n' },
      tempDir('config-'),
    );
    expect(wrong, 'scrub login with a wrong password').toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: Incorrect username or password.\n',
    });

    // Signed out, the profile falls back to the key it saved at the second rotation.
    const logout = await cli(['logout']);
    expect(logout, 'scrub logout').toMatchObject({ ...ok, stderr: 'Signed out (profile "default").\n' });
    const afterLogout = await cli(['account']);
    expect(afterLogout, 'scrub account after logout').toMatchObject({ code: 0, stderr: '' });
    expect(field(afterLogout, 'Email')).toBe(email);
    expect(field(afterLogout, 'Credential')).toBe('saved key (profile "default")');
    expect(field(afterLogout, 'API key')).toBe(`…${newKey.slice(-4)}`);
  }, 60_000);
});
