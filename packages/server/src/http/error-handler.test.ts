import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { installErrorHandler } from './error-handler.js';
import { RouteRegistry } from './route-registry.js';

async function appWithLog() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'error' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  const registry = new RouteRegistry(app);
  registry.add(
    {
      method: 'POST',
      path: '/things/{thing_id}',
      auth: 'none',
      summary: 'test',
      params: z.object({ thing_id: z.string().regex(/^t_\d+$/, 'must look like t_123') }),
      query: z.object({ count: z.coerce.number().int().min(1) }),
      body: z.object({ name: z.string().min(1), size: z.number() }),
      response: z.object({ ok: z.boolean() }),
    },
    async ({ body }) => {
      if (body.name === 'crash') throw new Error('connection string postgres://admin:hunter2@db');
      if (body.name === 'broke')
        throw new ApiError('insufficient_credits', 'Not enough credits', {
          credits_required: 10,
          credits_available: 3,
        });
      if (body.name === 'wrong-shape') return { ok: 'yes' } as unknown as { ok: boolean };
      return { ok: true };
    },
  );
  registry.installNotFoundHandler();
  await app.ready();
  return { app, lines };
}

const post = (url: string, payload: unknown) => ({
  method: 'POST' as const,
  url,
  payload: payload as object,
});

describe('the error funnel', () => {
  it('names the body field that failed and why', async () => {
    const { app } = await appWithLog();
    const res = await app.inject(post('/things/t_1?count=2', { name: '' }));
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['name', 'size']);
    expect(error.message).toMatch(/body field "name"/);
  });

  it('names a bad query parameter', async () => {
    const res = await (await appWithLog()).app.inject(post('/things/t_1?count=abc', { name: 'a', size: 1 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ location: 'query', path: 'count' });
  });

  it('names a bad path parameter with the schema message', async () => {
    const res = await (await appWithLog()).app.inject(post('/things/zzz?count=1', { name: 'a', size: 1 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({
      location: 'params',
      path: 'thing_id',
      message: 'must look like t_123',
    });
  });

  it('keeps the code, message and credit counts of an expected failure', async () => {
    const res = await (await appWithLog()).app.inject(
      post('/things/t_1?count=1', { name: 'broke', size: 1 }),
    );
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      error: { code: 'insufficient_credits', message: 'Not enough credits' },
      credits_required: 10,
      credits_available: 3,
    });
  });

  it('answers an unexpected failure with 500 and the request id, logs it, and leaks nothing', async () => {
    const { app, lines } = await appWithLog();
    const res = await app.inject(post('/things/t_1?count=1', { name: 'crash', size: 1 }));
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
    const requestId = res.json().error.request_id;
    expect(res.json().message).toContain(requestId);
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.reqId === requestId);
    expect(logged?.err?.message).toContain('hunter2');
  });

  it('refuses a content type the API does not read with 415, saying what it accepts', async () => {
    const res = await (await appWithLog()).app.inject({
      method: 'POST',
      url: '/things/t_1?count=1',
      headers: { 'content-type': 'application/xml' },
      payload: '<thing/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
    expect(res.json().message).toContain('application/json');
  });

  it('does not send an answer that breaks the contract', async () => {
    const res = await (await appWithLog()).app.inject(
      post('/things/t_1?count=1', { name: 'wrong-shape', size: 1 }),
    );
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
  });
});
