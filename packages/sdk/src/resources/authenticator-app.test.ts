import { latestCode, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStorage } from '../auth/token-storage.js';
import { Scrub } from '../client.js';
import { AuthError, InvalidCodeError, PermissionDeniedError } from '../errors.js';

/**
 * Authenticator apps through the SDK against the real service and its built-in pool, with admins
 * required to use one (`SCRUB_REQUIRE_MFA_FOR=admin`); the codes are computed here as a phone would.
 */
let server: RunningServer;
const PASSWORD = 'Correct-Horse-9';

beforeAll(async () => {
  server = await startLocalServer({ SCRUB_REQUIRE_MFA_FOR: 'admin', SCRUB_ADMIN_EMAILS: 'root@example.com' });
}, 120_000);
afterAll(() => server?.close());

const client = () =>
  new Scrub({ baseURL: server.url, apiKey: null, tokenStorage: new MemoryTokenStorage(), maxRetries: 0 });
const codeOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

describe('scrub.auth.authenticator and signIn with a code', () => {
  let secret: string;
  let recoveryCodes: string[];
  let root: Scrub;

  it('sets up an app while signed in; the admin area opens once it is confirmed', async () => {
    root = client();
    await root.auth.signUp({ email: 'root@example.com', password: PASSWORD });
    await root.auth.confirmSignUp({
      email: 'root@example.com',
      code: await latestCode(server, 'root@example.com'),
    });
    await root.auth.signIn({ email: 'root@example.com', password: PASSWORD });
    await expect(root.admin.users.list()).rejects.toMatchObject({ code: 'mfa_required' });
    await expect(root.admin.users.list()).rejects.toBeInstanceOf(PermissionDeniedError);

    const setup = await root.auth.authenticator.setUp();
    secret = setup.secret;
    expect(setup.uri).toBe(
      `otpauth://totp/Scrub%3Aroot%40example.com?secret=${secret}&issuer=Scrub&algorithm=SHA1&digits=6&period=30`,
    );
    await expect(
      root.auth.authenticator.confirm({ code: codeOf(secret) === '000000' ? '111111' : '000000' }),
    ).rejects.toBeInstanceOf(InvalidCodeError);
    ({ recoveryCodes } = (await root.auth.authenticator.confirm({ code: codeOf(secret, -1) })) as {
      recoveryCodes: string[];
    });
    expect(recoveryCodes).toHaveLength(10);
    expect(await root.auth.authenticator.status()).toEqual({ enabled: true });
    expect((await root.admin.users.list()).users.length).toBeGreaterThan(0);
  });

  it('asks for the code at sign-in, again after a wrong one; without a way to ask, says so', async () => {
    const asked: boolean[] = [];
    const again = client();
    await again.auth.signIn({
      email: 'root@example.com',
      password: PASSWORD,
      mfaCode: async ({ retry }) => {
        asked.push(retry);
        return retry ? codeOf(secret) : '123456';
      },
    });
    expect(asked).toEqual([false, true]);
    expect((await again.auth.session())?.email).toBe('root@example.com');

    const error = await client()
      .auth.signIn({ email: 'root@example.com', password: PASSWORD })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'SOFTWARE_TOKEN_MFA' });
    const recovered = client();
    await recovered.auth.signIn({
      email: 'root@example.com',
      password: PASSWORD,
      mfaCode: async () => recoveryCodes[0]!,
    });
    expect(await recovered.auth.session()).not.toBeNull();
  });

  it('has a new admin set up an app during sign-in', async () => {
    await root.admin.users.create({ le: 'ada@example.com', lp: PASSWORD, lp_confirm: PASSWORD, ut: 'admin' });
    const ada = client();
    const refused = await ada.auth
      .signIn({ email: 'ada@example.com', password: PASSWORD })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'MFA_SETUP' });
    await ada.auth.signIn({
      email: 'ada@example.com',
      password: PASSWORD,
      enrolAuthenticator: async ({ secret: adaSecret, uri }) => {
        expect(uri).toContain(`secret=${adaSecret}`);
        return codeOf(adaSecret);
      },
    });
    expect((await ada.admin.users.list()).users.length).toBeGreaterThan(1);
  });
});
