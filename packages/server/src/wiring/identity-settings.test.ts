import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.js';
import { loadConfig } from '../config/config.js';

describe('identity and mail settings', () => {
  it('default to the built-in pool on this machine, with mail kept in the outbox only', () => {
    const config = loadConfig({});
    expect(config.cognito).toBeNull();
    expect(config.publicUrl).toBeNull();
    expect(config.localIdentity).toEqual({
      userPoolId: 'us-east-1_scrublocal',
      clientId: 'scrublocalclient0000000000',
      tokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 30 * 86_400,
    });
    expect(config.mail.smtpUrl).toBeNull();
  });

  it('read the public URL, lifetimes and SMTP from the environment, and name what is wrong', () => {
    const config = loadConfig({
      SCRUB_PUBLIC_URL: 'https://scrub.example.com/',
      SCRUB_TOKEN_TTL_SECONDS: '600',
      SCRUB_SMTP_URL: 'smtps://user:secret@mail.example.com:465',
    });
    expect(config.publicUrl).toBe('https://scrub.example.com');
    expect(config.localIdentity.tokenTtlSeconds).toBe(600);
    expect(config.mail.smtpUrl).toBe('smtps://user:secret@mail.example.com:465');
    expect(() => loadConfig({ SCRUB_PUBLIC_URL: 'scrub.example.com' })).toThrow(/SCRUB_PUBLIC_URL/);
    expect(() => loadConfig({ SCRUB_SMTP_URL: 'http://mail' })).toThrow(/SCRUB_SMTP_URL/);
    expect(() => loadConfig({ SCRUB_LOCAL_USER_POOL_ID: 'nounderscore' })).toThrow(
      /SCRUB_LOCAL_USER_POOL_ID/,
    );
  });

  it('refuse the built-in pool in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/needs an Amazon Cognito user pool/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SCRUB_COGNITO_USER_POOL_ID: 'us-east-1_AbCdEf123',
        SCRUB_COGNITO_CLIENT_ID: 'abc123',
        // Production needs Stripe too (the built-in payment provider is refused there).
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
      }).cognito,
    ).toMatchObject({ userPoolId: 'us-east-1_AbCdEf123' });
  });

  it('name the hosted sign-in domain of an Amazon Cognito pool, and only with one', () => {
    const pool = { SCRUB_COGNITO_USER_POOL_ID: 'us-east-1_AbCdEf123', SCRUB_COGNITO_CLIENT_ID: 'abc123' };
    expect(
      loadConfig({ ...pool, SCRUB_COGNITO_DOMAIN: 'scrub.auth.us-east-1.amazoncognito.com' }).cognito,
    ).toMatchObject({ hostedDomain: 'https://scrub.auth.us-east-1.amazoncognito.com' });
    expect(loadConfig({ ...pool, SCRUB_COGNITO_DOMAIN: 'https://login.example.com/' }).cognito).toMatchObject(
      {
        hostedDomain: 'https://login.example.com',
      },
    );
    expect(loadConfig(pool).cognito?.hostedDomain).toBeNull();
    expect(() => loadConfig({ SCRUB_COGNITO_DOMAIN: 'login.example.com' })).toThrow(
      /SCRUB_COGNITO_DOMAIN is the hosted sign-in of an Amazon Cognito pool/,
    );
    expect(() => loadConfig({ ...pool, SCRUB_COGNITO_DOMAIN: 'http://login.example.com' })).toThrow(
      /SCRUB_COGNITO_DOMAIN: must be the hosted sign-in domain/,
    );
  });

  it('with an Amazon Cognito pool, /config points clients at Cognito and the server serves no pool of its own', async () => {
    const t = await createTestApp({
      cognito: {
        region: 'us-east-1',
        userPoolId: 'us-east-1_AbCdEf123',
        clientId: 'abc123',
        hostedDomain: 'https://scrub.auth.us-east-1.amazoncognito.com',
      },
    });
    try {
      const config = await t.app.inject({ method: 'GET', url: '/config' });
      expect(config.json().identity).toEqual({
        provider: 'cognito',
        region: 'us-east-1',
        user_pool_id: 'us-east-1_AbCdEf123',
        client_id: 'abc123',
        endpoint: null,
        hosted_ui: { domain: 'https://scrub.auth.us-east-1.amazoncognito.com', client_id: 'abc123' },
      });
      const identity = await t.app.inject({
        method: 'POST',
        url: '/identity',
        headers: { 'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp' },
        payload: {},
      });
      expect(identity.statusCode).toBe(404);
      const jwks = await t.app.inject({ method: 'GET', url: '/us-east-1_scrublocal/.well-known/jwks.json' });
      expect(jwks.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('the built-in pool publishes its JWKS under its issuer', async () => {
    const t = await createTestApp({ publicUrl: 'https://scrub.example.com' });
    try {
      const config = (await t.app.inject({ method: 'GET', url: '/config' })).json();
      expect(config.identity.endpoint).toBe('https://scrub.example.com/identity');
      expect(config.identity.hosted_ui).toBeNull();
      const jwks = await t.app.inject({ method: 'GET', url: '/us-east-1_scrublocal/.well-known/jwks.json' });
      expect(jwks.statusCode).toBe(200);
      expect(jwks.json().keys).toEqual([
        expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) }),
      ]);
      expect(jwks.json().keys[0]).not.toHaveProperty('d');
    } finally {
      await t.close();
    }
  });

  it('without SCRUB_PUBLIC_URL the built-in pool is reached where the page was loaded: 127.0.0.1, the machine address', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as AddressInfo).port;
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `192.168.1.20:${port}`,
        `[::1]:${port}`,
      ]) {
        const config = await t.app.inject({ method: 'GET', url: '/config', headers: { host } });
        expect(config.json().identity.endpoint).toBe(`http://${host}/identity`);
      }
      // Signing up there works: the pool answers on that origin, as the page's `connect-src 'self'` allows.
      const signUp = await fetch(`http://127.0.0.1:${port}/identity`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
        },
        body: JSON.stringify({
          ClientId: t.config.localIdentity.clientId,
          Username: 'origin@example.com',
          Password: 'Correct-Horse-9',
          UserAttributes: [{ Name: 'email', Value: 'origin@example.com' }],
        }),
      });
      expect(signUp.status).toBe(200);
      for (const host of ['a b', 'example.com/path']) {
        const odd = await t.app.inject({ method: 'GET', url: '/config', headers: { host } });
        expect(odd.json().identity.endpoint, host).toBe(`http://localhost:${port}/identity`);
      }
    } finally {
      await t.close();
    }
  });

  it('bad input to /identity is a 4xx in Cognito shape, never a 500', async () => {
    const t = await createTestApp({ maxBodyBytes: 4096 });
    try {
      const bodies = [
        '',
        'null',
        '[]',
        '"x"',
        '{}',
        '{"ClientId":{}}',
        '\u0000\u0001',
        '{"a":1}'.repeat(1000),
      ];
      const types = ['application/x-amz-json-1.1', 'application/json', 'text/plain', 'application/xml'];
      const targets = ['SignUp', 'InitiateAuth', 'RespondToAuthChallenge', 'GetUser', 'RevokeToken', ''];
      for (const [i, payload] of bodies.entries()) {
        for (const [j, target] of targets.entries()) {
          const type = types[(i + j) % types.length]!;
          const res = await t.app.inject({
            method: 'POST',
            url: '/identity',
            headers: { 'content-type': type, 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
            payload,
          });
          expect(res.statusCode, `${target} ${type} ${payload.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, `${target} ${type} ${payload.slice(0, 20)}`).toBeLessThan(500);
          expect(res.json()).toHaveProperty('__type');
        }
      }
    } finally {
      await t.close();
    }
  });
});
