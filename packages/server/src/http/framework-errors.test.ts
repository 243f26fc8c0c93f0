import { connect } from 'node:net';
import { ErrorEnvelopeSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

/** Sends bytes as they are, past any client that would refuse to, and reads the whole answer. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('refusals from below the routes', () => {
  it.each([
    ['a broken percent-encoding', '/%E0%A4%A'],
    ['a lone percent sign', '/files/%'],
    ['a path segment of 5,000 characters', `/files/${'x'.repeat(5000)}`],
  ])('%s is a 400 in the error envelope', async (_, url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    const { error } = ErrorEnvelopeSchema.parse(res.json());
    expect(error).toMatchObject({ code: 'bad_request', request_id: res.headers['x-request-id'] });
  });

  it('a request that is not HTTP is answered in the error envelope', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(ErrorEnvelopeSchema.parse(bodyOf(answer)).error.message).toMatch(/not valid HTTP/);
  });

  it('headers larger than Node reads are answered in the error envelope', async () => {
    const answer = await raw(`GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(ErrorEnvelopeSchema.parse(bodyOf(answer)).error.message).toMatch(/headers are larger/);
  });
});
