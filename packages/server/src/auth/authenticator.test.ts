import { messages, type RouteSpec } from '@scrub/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestIdentity, type TestIdentity } from '../../test/id-tokens.js';
import { installErrorHandler } from '../http/error-handler.js';
import { RouteRegistry } from '../http/route-registry.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { ApiKeyOwners } from './api-key-owners.js';
import { rotateApiKey } from './api-keys.js';
import { Authenticator } from './authenticator.js';

const whoAmI = z.object({ email: z.string(), role: z.string(), via: z.string() });
const spec = (auth: RouteSpec['auth'], path: string, apiKeyInQuery = false) =>
  ({ method: 'GET', path, auth, apiKeyInQuery, summary: 'test', response: whoAmI }) as const;

let id: TestIdentity;
let database: DatabaseHandle;
let app: FastifyInstance;

beforeAll(async () => {
  id = await createTestIdentity();
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  const registry = new RouteRegistry(
    app,
    new Authenticator({
      db: database.db,
      apiKeyOwners: new ApiKeyOwners(database.db, 10),
      verifier: id.verifier,
      adminEmails: [],
    }),
  );
  const answer = async ({ principal }: { principal: { email: string; role: string; via: string } }) => ({
    email: principal.email,
    role: principal.role,
    via: principal.via,
  });
  registry.add(spec('user', '/mine'), answer);
  registry.add(spec('user', '/mine-by-query', true), answer);
  registry.add(spec('admin', '/staff-only'), answer);
  registry.add(spec('none', '/public'), async ({ principal }) => ({
    email: String(principal),
    role: '',
    via: '',
  }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() };
};
const bearer = async (groups: string[], email = `${groups.join('-') || 'plain'}@example.com`) => ({
  authorization: `Bearer ${await id.token({ sub: `sub-${email}`, email, groups })}`,
});

describe('route authentication', () => {
  it('hands the handler the caller and how they signed in', async () => {
    expect(await get('/mine', await bearer(['Agency']))).toEqual({
      status: 200,
      body: { email: 'Agency@example.com', role: 'Agency', via: 'token' },
    });
  });

  it('lets public routes through without credentials, with no principal', async () => {
    expect((await get('/public')).body.email).toBe('null');
  });

  it('opens admin routes to Admin and Super Admin tokens only', async () => {
    expect((await get('/staff-only', await bearer(['Admin']))).status).toBe(200);
    expect((await get('/staff-only', await bearer(['Super Admin']))).status).toBe(200);
    for (const groups of [[], ['Agency']]) {
      const { status, body } = await get('/staff-only', await bearer(groups));
      expect(status).toBe(403);
      expect(body).toMatchObject({ error: { code: 'forbidden' }, message: messages.accessDenied });
    }
  });

  it("refuses an admin's API key on admin routes: those need the signed-in admin", async () => {
    const headers = await bearer(['Admin'], 'keyed-admin@example.com');
    const { body } = await get('/mine', headers);
    expect(body.role).toBe('Admin');
    const profile = await database.db
      .selectFrom('profiles')
      .select('id')
      .where('email', '=', 'keyed-admin@example.com')
      .executeTakeFirstOrThrow();
    const { api_key } = await rotateApiKey(database.db, profile.id);
    expect((await get('/mine', { 'x-api-key': api_key })).body.via).toBe('api_key');
    const denied = await get('/staff-only', { 'x-api-key': api_key });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(messages.accessDenied);
  });

  it('takes k only where the route allows it', async () => {
    const profile = await database.db.selectFrom('profiles').select('id').executeTakeFirstOrThrow();
    const { api_key } = await rotateApiKey(database.db, profile.id);
    expect((await get(`/mine-by-query?k=${api_key}`)).status).toBe(200);
    expect((await get(`/mine?k=${api_key}`)).status).toBe(401);
    expect((await get(`/mine-by-query?k=${api_key}&k=${api_key}`)).body.error.code).toBe('invalid_api_key');
  });

  it('accepts only API keys when no identity provider is configured', async () => {
    const bare = Fastify();
    bare.setValidatorCompiler(validatorCompiler);
    bare.setSerializerCompiler(serializerCompiler);
    installErrorHandler(bare);
    const registry = new RouteRegistry(
      bare,
      new Authenticator({
        db: database.db,
        apiKeyOwners: new ApiKeyOwners(database.db, 10),
        verifier: null,
        adminEmails: [],
      }),
    );
    registry.add(spec('user', '/mine'), async () => ({ email: '', role: '', via: '' }));
    const res = await bare.inject({ method: 'GET', url: '/mine', headers: await bearer([]) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/no identity provider configured/);
    await bare.close();
  });

  it('will not register an authenticated route without an authenticator', () => {
    const registry = new RouteRegistry(Fastify());
    expect(() => registry.add(spec('user', '/mine'), async () => ({ email: '', role: '', via: '' }))).toThrow(
      /no authenticator/,
    );
  });
});
