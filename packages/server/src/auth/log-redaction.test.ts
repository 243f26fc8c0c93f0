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

  // Every spelling the query parser reads as the parameter `k` (it decodes names before the
  // authenticator sees them), so every spelling a caller can authenticate with.
  const key = `scrub_${'Z'.repeat(40)}`;
  const spellings = [
    `k=${key}`,
    `%6B=${key}`,
    `%6b=${key}`,
    `%4B=${key}`,
    `K=${key}`,
    `k=${key}&k=${key}`,
    `p=1&&k=${key}`,
    `k=${key}#frag`,
    `k=${encodeURIComponent(key)}`,
    `%6B=${encodeURIComponent(key).replace(/_/g, '%5F')}`,
    `k=${key.slice(0, 10)}+${key.slice(10)}`,
    `p=1#&k=${key}`,
    `k%00=1&%6B=${key}`,
  ];
  it.each(spellings)('redacts the key in ?%s', (query) => {
    const redacted = redactUrl(`/verify?${query}`);
    expect(redacted).not.toContain(key);
    expect(redacted).not.toContain(key.slice(10));
    expect(redacted).not.toContain('ZZZZZZZZ');
    expect(redacted).toContain('[redacted]');
  });

  it('keeps the path and the other parameters as they were sent', () => {
    expect(redactUrl(`/verify?p=%2B12015550123&%6B=${key}`)).toBe('/verify?p=%2B12015550123&%6B=[redacted]');
    expect(redactUrl('/verify')).toBe('/verify');
    expect(redactUrl('/verify?')).toBe('/verify?');
    expect(redactUrl('/verify?%E0%A4%A=1')).toBe('/verify?%E0%A4%A=1');
  });

  it('never logs a key sent as ?%6B= through the real service logger', async () => {
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
    let seen: unknown;
    app.get('/verify', async (request) => {
      seen = (request.query as Record<string, unknown>).k;
      return { ok: true };
    });
    await app.inject({ method: 'GET', url: `/verify?%6B=${key}` });
    await app.close();
    expect(seen).toBe(key);
    expect(lines.join('')).not.toContain(key);
  });

  it("is the service logger's request serializer", () => {
    const logger = createLogger('silent', false);
    expect((logger as unknown as Record<symbol, unknown>)[pino.symbols.serializersSym]).toMatchObject({
      req: requestSerializer,
    });
  });
});
