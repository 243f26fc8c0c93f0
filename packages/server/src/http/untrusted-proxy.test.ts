import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { UNTRUSTED_PROXY_WARNING, warnOfUntrustedProxy } from './untrusted-proxy.js';

async function appWithLog(trustProxy: boolean | number) {
  const lines: string[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  warnOfUntrustedProxy(app, trustProxy);
  app.get('/health', async () => ({ ok: true }));
  return { app, warnings: () => lines.filter((line) => line.includes('SCRUB_TRUST_PROXY')) };
}

describe('requests through a proxy the service does not trust', () => {
  it('warn once, at the first request with X-Forwarded-For', async () => {
    const { app, warnings } = await appWithLog(false);
    await app.inject({ method: 'GET', url: '/health' });
    expect(warnings()).toEqual([]);
    for (let i = 0; i < 3; i++) {
      await app.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-for': '203.0.113.9' } });
    }
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0] as string).msg).toBe(UNTRUSTED_PROXY_WARNING);
    await app.close();
  });

  it('say nothing when SCRUB_TRUST_PROXY is set', async () => {
    const { app, warnings } = await appWithLog(1);
    await app.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(warnings()).toEqual([]);
    await app.close();
  });
});
