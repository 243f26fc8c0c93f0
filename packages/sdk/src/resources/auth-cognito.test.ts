import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStorage } from '../auth/token-storage.js';
import { Scrub } from '../client.js';
import { APIConnectionError, IdentityNotConfiguredError, InvalidCredentialsError } from '../errors.js';

/**
 * Against Amazon Cognito the SDK code is the same: only `GET /config` differs. Cognito itself is
 * played by nock at its regional endpoint.
 */
const API = 'http://scrub.test';
const COGNITO = 'https://cognito-idp.us-east-2.amazonaws.com';
const cognitoConfig = {
  identity: {
    provider: 'cognito',
    region: 'us-east-2',
    user_pool_id: 'us-east-2_AbCdEf123',
    client_id: '4example5client6id7',
    endpoint: null,
  },
  payments: null,
  limits: { max_upload_bytes: 1_000_000 },
};

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned JWT: the client reads claims, only the API verifies signatures. */
const jwt = (claims: Record<string, unknown>) => `${base64url({ alg: 'RS256' })}.${base64url(claims)}.sig`;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const client = (tokenStorage = new MemoryTokenStorage()) =>
  new Scrub({ baseURL: API, apiKey: null, tokenStorage, maxRetries: 0 });

describe('an Amazon Cognito user pool', () => {
  it("signs in at the pool's regional endpoint, and maps its refusal like the built-in pool's", async () => {
    const bodies: Record<string, unknown>[] = [];
    nock(API).get('/config').reply(200, cognitoConfig);
    const cognito = nock(COGNITO)
      .matchHeader('x-amz-target', 'AWSCognitoIdentityProviderService.InitiateAuth')
      .matchHeader('content-type', 'application/x-amz-json-1.1')
      .post('/', (body: Record<string, unknown>) => bodies.push(body) > 0)
      .reply(400, { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });

    const error = await client()
      .auth.signIn({ email: 'pat@example.com', password: 'Correct-Horse-9' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect(error).toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    expect(bodies[0]).toMatchObject({ AuthFlow: 'USER_SRP_AUTH', ClientId: '4example5client6id7' });
    cognito.done();
  });

  it('refreshes a stored session there, then calls the API with the new ID token', async () => {
    const storage = new MemoryTokenStorage();
    const prefix = 'CognitoIdentityServiceProvider.4example5client6id7';
    const expired = { sub: 'u-1', email: 'pat@example.com', iat: now() - 7200, exp: now() - 3600 };
    storage.setItem(
      'scrub.identity',
      JSON.stringify({
        provider: 'cognito',
        region: 'us-east-2',
        userPoolId: 'us-east-2_AbCdEf123',
        clientId: '4example5client6id7',
        endpoint: `${COGNITO}/`,
      }),
    );
    storage.setItem(`${prefix}.LastAuthUser`, 'u-1');
    storage.setItem(`${prefix}.u-1.idToken`, jwt(expired));
    storage.setItem(`${prefix}.u-1.accessToken`, jwt(expired));
    storage.setItem(`${prefix}.u-1.refreshToken`, 'refresh-1');
    const fresh = jwt({ sub: 'u-1', email: 'pat@example.com', iat: now(), exp: now() + 3600 });
    nock(COGNITO)
      .matchHeader('x-amz-target', 'AWSCognitoIdentityProviderService.InitiateAuth')
      .post('/', {
        ClientId: '4example5client6id7',
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: 'refresh-1' },
      })
      .reply(200, { AuthenticationResult: { IdToken: fresh, AccessToken: fresh, ExpiresIn: 3600 } });
    const api = nock(API, { badheaders: ['x-api-key'] })
      .matchHeader('authorization', `Bearer ${fresh}`)
      .get('/credits')
      .reply(200, { credits: 5 });

    await expect(client(storage).account.credits()).resolves.toEqual({ credits: 5 });
    api.done();
    expect(storage.getItem(`${prefix}.u-1.refreshToken`)).toBe('refresh-1');
  });

  it('reports an unreachable identity provider as a connection error and keeps the session', async () => {
    const storage = new MemoryTokenStorage();
    const prefix = 'CognitoIdentityServiceProvider.4example5client6id7';
    const expired = jwt({ sub: 'u-1', iat: now() - 7200, exp: now() - 3600 });
    storage.setItem(
      'scrub.identity',
      JSON.stringify({
        provider: 'cognito',
        region: 'us-east-2',
        userPoolId: 'us-east-2_AbCdEf123',
        clientId: '4example5client6id7',
        endpoint: `${COGNITO}/`,
      }),
    );
    storage.setItem(`${prefix}.LastAuthUser`, 'u-1');
    storage.setItem(`${prefix}.u-1.idToken`, expired);
    storage.setItem(`${prefix}.u-1.accessToken`, expired);
    storage.setItem(`${prefix}.u-1.refreshToken`, 'refresh-1');
    nock(COGNITO).post('/').replyWithError('getaddrinfo ENOTFOUND cognito-idp.us-east-2.amazonaws.com');
    const scrub = client(storage);

    const error = await scrub.auth.session().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(`Could not reach ${COGNITO}`);
    expect(scrub.auth.hasSession()).toBe(true);
  });
});

describe('a service without an identity provider', () => {
  it('says signing in is not available there, without calling any pool', async () => {
    nock(API)
      .get('/config')
      .reply(200, { ...cognitoConfig, identity: null });

    const error = await client()
      .auth.signIn({ email: 'pat@example.com', password: 'x' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(IdentityNotConfiguredError);
    expect(error).toMatchObject({ code: 'identity_not_configured' });
  });

  it('needs no configuration, and makes no request, to know nobody is signed in', async () => {
    const scrub = client();
    expect(scrub.auth.hasSession()).toBe(false);
    await expect(scrub.auth.session()).resolves.toBeNull();
    expect(nock.pendingMocks()).toEqual([]);
  });
});
