import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** A connection that sends `text` and nothing more: what the server answered before closing it. */
function stallAfter(port: number, text: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.on('error', () => {});
  socket.write(text);
  return new Promise((resolve) => socket.once('close', () => resolve(received)));
}

describe('slow clients while the service runs', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ timeouts: { headersMs: 1000, requestMs: 2000, shutdownGraceMs: 1000 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  it('answers 408 and closes a connection whose headers do not arrive in SCRUB_HEADERS_TIMEOUT_SECONDS', async () => {
    const answer = await stallAfter(port, 'GET /health HTTP/1.1\r\nHost: scrub\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a request whose body does not arrive in SCRUB_REQUEST_TIMEOUT_SECONDS', async () => {
    const answer = await stallAfter(
      port,
      'POST /contact HTTP/1.1\r\nHost: scrub\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"na',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still serves a client that is not slow', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/plans`);
    expect(res.status).toBe(200);
  });
});
