import { latestCode, type RunningServer, startLocalServer } from '@scrub/test-support/local-server';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStorage } from '../auth/token-storage.js';
import { Scrub } from '../client.js';
import { AuthError, InvalidCodeError } from '../errors.js';

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

  it('sets up an app while signed in, with recovery codes', async () => {
    const tess = client();
    await tess.auth.signUp({ email: 'tess@example.com', password: PASSWORD });
    await tess.auth.confirmSignUp({
      email: 'tess@example.com',
      code: await latestCode(server, 'tess@example.com'),
    });
    await tess.auth.signIn({ email: 'tess@example.com', password: PASSWORD });

    const setup = await tess.auth.authenticator.setUp();
    secret = setup.secret;
    expect(setup.uri).toBe(
      `otpauth://totp/Scrub%3Atess%40example.com?secret=${secret}&issuer=Scrub&algorithm=SHA1&digits=6&period=30`,
    );
    await expect(
      tess.auth.authenticator.confirm({ code: codeOf(secret) === '000000' ? '111111' : '000000' }),
    ).rejects.toBeInstanceOf(InvalidCodeError);
    ({ recoveryCodes } = (await tess.auth.authenticator.confirm({ code: codeOf(secret, -1) })) as {
      recoveryCodes: string[];
    });
    expect(recoveryCodes).toHaveLength(10);
    expect(await tess.auth.authenticator.status()).toEqual({ enabled: true });
  });

  it('asks for the code at sign-in, again after a wrong one; without a way to ask, says so', async () => {
    const asked: boolean[] = [];
    const again = client();
    await again.auth.signIn({
      email: 'tess@example.com',
      password: PASSWORD,
      mfaCode: async ({ retry }) => {
        asked.push(retry);
        return retry ? codeOf(secret) : '123456';
      },
    });
    expect(asked).toEqual([false, true]);
    expect((await again.auth.session())?.email).toBe('tess@example.com');

    const error = await client()
      .auth.signIn({ email: 'tess@example.com', password: PASSWORD })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'SOFTWARE_TOKEN_MFA' });
    const recovered = client();
    await recovered.auth.signIn({
      email: 'tess@example.com',
      password: PASSWORD,
      mfaCode: async () => recoveryCodes[0]!,
    });
    expect(await recovered.auth.session()).not.toBeNull();
  });

  it('has every admin set up an app during sign-in, and keep it', async () => {
    // Root is an admin by SCRUB_ADMIN_EMAILS, Ada by another admin's hand: one rule for both.
    root = client();
    await root.auth.signUp({ email: 'root@example.com', password: PASSWORD });
    await root.auth.confirmSignUp({
      email: 'root@example.com',
      code: await latestCode(server, 'root@example.com'),
    });
    await expect(root.auth.signIn({ email: 'root@example.com', password: PASSWORD })).rejects.toMatchObject({
      code: 'MFA_SETUP',
    });
    await root.auth.signIn({
      email: 'root@example.com',
      password: PASSWORD,
      enrolAuthenticator: async ({ secret: rootSecret }) => codeOf(rootSecret),
    });
    await expect(root.auth.authenticator.disable()).rejects.toThrow(/role requires/);
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
