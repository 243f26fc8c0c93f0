import { MemoryTokenStorage, Scrub } from '@scrub/sdk';
import { latestCode, startLocalServer } from '@scrub/test-support/local-server';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

/**
 * `scrub login` for an account with an authenticator app, against the real service: the code from
 * --code or SCRUB_MFA_CODE in scripts, asked for (again after a wrong one) at a terminal.
 */
let server: RunningServer;
const PASSWORD = 'Correct-Horse-9';
const EMAIL = `mfa.${Date.now()}@example.com`;
let secret = '';
let recoveryCodes: string[] = [];
const codeOf = (offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });
const env = () => ({ SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url }) as NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startLocalServer();
  const sdk = new Scrub({ baseURL: server.url, apiKey: null, tokenStorage: new MemoryTokenStorage() });
  await sdk.auth.signUp({ email: EMAIL, password: PASSWORD });
  await sdk.auth.confirmSignUp({ email: EMAIL, code: await latestCode(server, EMAIL) });
  await sdk.auth.signIn({ email: EMAIL, password: PASSWORD });
  ({ secret } = await sdk.auth.authenticator.setUp());
  ({ recoveryCodes } = (await sdk.auth.authenticator.confirm({ code: codeOf(-1) })) as {
    recoveryCodes: string[];
  });
}, 120_000);
afterAll(() => server?.close());

describe('scrub login with an authenticator app', () => {
  it('refuses a script that gives no code, and one whose code is wrong', async () => {
    const none = await scrub(['login', '--email', EMAIL, '--password-stdin'], env(), { stdin: PASSWORD });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--code <code> or SCRUB_MFA_CODE');
    const wrong = await scrub(['login', '--email', EMAIL, '--password-stdin', '--code', '123456'], env(), {
      stdin: PASSWORD,
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('authenticator code was not right');
  });

  it('signs in with --code, and with SCRUB_MFA_CODE (a recovery code)', async () => {
    const withOption = await scrub(
      ['login', '--email', EMAIL, '--password-stdin', '--code', codeOf()],
      env(),
      {
        stdin: PASSWORD,
      },
    );
    expect(withOption.code, withOption.stderr).toBe(0);
    expect(withOption.stderr).toContain(`Signed in as ${EMAIL}`);
    const withEnv = await scrub(
      ['login', '--email', EMAIL, '--password-stdin'],
      { ...env(), SCRUB_MFA_CODE: recoveryCodes[0] },
      { stdin: PASSWORD },
    );
    expect(withEnv.code, withEnv.stderr).toBe(0);
  });

  it('asks at a terminal, and again after a wrong code', async () => {
    const asked = await scrub(['login', '--email', EMAIL], env(), {
      answers: [PASSWORD, '000000', codeOf(1)],
    });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.prompts).toEqual([
      'Password',
      'Code from your authenticator app (or a recovery code)',
      'That code was not right. Code from your authenticator app',
    ]);
  });
});

describe('scrub login for an admin who must set up an authenticator (SCRUB_REQUIRE_MFA_FOR=admin)', () => {
  const ROOT = `root.${Date.now()}@example.com`;
  let strict: RunningServer;
  const strictEnv = () =>
    ({ SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: strict.url }) as NodeJS.ProcessEnv;

  beforeAll(async () => {
    // ROOT is an admin by SCRUB_ADMIN_EMAILS: signed up, never signed in.
    strict = await startLocalServer({ SCRUB_REQUIRE_MFA_FOR: 'admin', SCRUB_ADMIN_EMAILS: ROOT });
    const sdk = new Scrub({ baseURL: strict.url, apiKey: null, tokenStorage: new MemoryTokenStorage() });
    await sdk.auth.signUp({ email: ROOT, password: PASSWORD });
    await sdk.auth.confirmSignUp({ email: ROOT, code: await latestCode(strict, ROOT) });
  }, 120_000);
  afterAll(() => strict?.close());

  it('refuses a script, saying to set it up; at a terminal, shows the key and takes the first code', async () => {
    const script = await scrub(['login', '--email', ROOT, '--password-stdin'], strictEnv(), {
      stdin: PASSWORD,
    });
    expect(script.code).toBe(3);
    expect(script.stderr).toContain('Your role requires an authenticator app and none is set up');

    const enrolled = await scrub(['login', '--email', ROOT], strictEnv(), {
      answers: [
        PASSWORD,
        (shown) => {
          const key = /^ {2}([A-Z2-7]{32})$/m.exec(shown)?.[1] ?? '';
          return new TOTP({ secret: Secret.fromBase32(key) }).generate();
        },
      ],
    });
    expect(enrolled.code, enrolled.stderr).toBe(0);
    expect(enrolled.prompts).toEqual(['Password', 'Code the app shows']);
    expect(enrolled.stderr).toMatch(/otpauth:\/\/totp\//);
    expect(enrolled.stderr).toContain(`Signed in as ${ROOT}`);
  });
});
