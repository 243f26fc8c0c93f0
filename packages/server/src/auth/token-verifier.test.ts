import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestIdentity, TEST_CLIENT_ID, type TestIdentity } from '../../test/id-tokens.js';
import { ApiError } from '../errors/api-error.js';
import { cognitoIssuer, createTokenVerifier } from './token-verifier.js';

let id: TestIdentity;
const alice = { sub: 'sub-alice', email: 'alice@example.com', groups: ['Admin'], name: 'Alice' };

beforeAll(async () => {
  id = await createTestIdentity();
});

async function rejection(token: string, verify = id.verifier): Promise<ApiError> {
  const error = await verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('ID token verification', () => {
  it('accepts a valid ID token and reads who it is for', async () => {
    expect(await id.verifier(await id.token(alice))).toEqual({
      sub: 'sub-alice',
      email: 'alice@example.com',
      emailVerified: true,
      name: 'Alice',
      groups: ['Admin'],
      issuedAt: expect.any(Number),
    });
  });

  it.each([
    ['an expired token', { expiresIn: -60 }, 'token_expired', /expired/],
    [
      'another issuer',
      { issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Other' },
      'unauthorized',
      /another identity provider/,
    ],
    ['another app client', { audience: 'someotherclient' }, 'unauthorized', /another app client/],
    ['a key the service does not know', { foreignKey: true }, 'unauthorized', /signature/],
    ['an access token', { tokenUse: 'access' as const }, 'unauthorized', /access token.*ID token/],
    ['a token issued an hour from now', { issuedAt: 3600 }, 'unauthorized', /not valid yet.*future/],
  ])('refuses %s with a 401 that says why', async (_, options, code, message) => {
    const error = await rejection(await id.token(alice, options));
    expect(error.status).toBe(401);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('forgives a clock a few seconds fast', async () => {
    expect((await id.verifier(await id.token(alice, { issuedAt: 2 }))).sub).toBe('sub-alice');
  });

  it('refuses alg none and HS256: only RS256 is accepted', async () => {
    expect((await rejection(id.unsignedToken(alice))).message).toMatch(/RS256/);
    expect((await rejection(await id.hmacToken(alice))).message).toMatch(/RS256/);
  });

  it.each(['not-a-token', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0'])(
    'calls %s malformed',
    async (token) => {
      const error = await rejection(token);
      expect(error.status).toBe(401);
      expect(error.message).toMatch(/malformed/);
    },
  );

  it('never echoes the token or its claims in the message', async () => {
    const token = await id.token(alice, { audience: 'someotherclient' });
    const { message } = await rejection(token);
    expect(message).not.toContain('someotherclient');
    expect(message).not.toContain('alice');
  });

  it("fetches a remote pool's JWKS by URL, as it does for Amazon Cognito", async () => {
    let fetched = 0;
    const server: Server = createServer((req, res) => {
      fetched++;
      expect(req.url).toBe('/us-east-1_TestPool1/.well-known/jwks.json');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(id.jwks));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/us-east-1_TestPool1`;
      const verify = createTokenVerifier({
        issuer: base,
        audience: TEST_CLIENT_ID,
        jwks: new URL(`${base}/.well-known/jwks.json`),
      });
      const first = await id.token(alice, { issuer: base });
      expect((await verify(first)).sub).toBe('sub-alice');
      expect((await verify(await id.token(alice, { issuer: base }))).sub).toBe('sub-alice');
      expect(fetched).toBe(1);
      expect((await rejection(await id.token(alice), verify)).message).toMatch(/another identity provider/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('builds the Amazon Cognito issuer from region and pool id', () => {
    expect(cognitoIssuer('us-east-1', 'us-east-1_AbC123')).toBe(
      'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbC123',
    );
  });
});
