import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { redactUrl, requestSerializer } from './log-redaction.js';

describe('request logs', () => {
  it('never carry an API key from the k query parameter', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({
      loggerInstance: pino({ serializers: { req: requestSerializer } }, stream) as FastifyBaseLogger,
    });
    app.get('/credits', async () => ({ ok: true }));
    const key = `scrub_${'Q'.repeat(40)}`;
    await app.inject({ method: 'GET', url: `/credits?x=1&k=${key}` });
    await app.close();
    const logged = lines.join('');
    expect(logged).toContain('/credits?x=1&k=[redacted]');
    expect(logged).not.toContain(key);
  });

  it('redacts k wherever it is in the query, and nothing else', () => {
    expect(redactUrl('/verify?k=abc&p=5551234567')).toBe('/verify?k=[redacted]&p=5551234567');
    expect(redactUrl('/verify?p=1&K=abc')).toBe('/verify?p=1&K=[redacted]');
    expect(redactUrl('/verify?kk=1&bk=2')).toBe('/verify?kk=1&bk=2');
  });

  it("is the service logger's request serializer", () => {
    const logger = createLogger('silent', false);
    expect((logger as unknown as Record<symbol, unknown>)[pino.symbols.serializersSym]).toMatchObject({
      req: requestSerializer,
    });
  });
});
