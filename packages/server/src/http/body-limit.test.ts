import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/**
 * A plain Node client in a process of its own (as a customer's script is), writing a 2 MiB JSON body
 * 16 KiB at a time as fast as it can, `tries` times on one keep-alive connection's agent and `tries`
 * times with a new connection each: prints what each try read (a status, or the socket's error).
 */
const CLIENT = `
import http from 'node:http';
const [port, tries] = process.argv.slice(1).map(Number);
const body = Buffer.from('{"message":"' + 'a'.repeat(2 * 1024 * 1024) + '"}');
const post = (agent) => new Promise((resolve) => {
  const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/contact', agent,
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (response) => {
    let text = '';
    response.on('data', (chunk) => { text += chunk; });
    response.on('end', () => resolve({ status: response.statusCode, text }));
    response.on('error', (error) => resolve({ error: error.code }));
  });
  request.on('error', (error) => resolve({ error: error.code }));
  (async () => {
    for (let at = 0; at < body.length; at += 16384) {
      request.write(body.subarray(at, at + 16384));
      await new Promise((next) => setImmediate(next));
    }
    request.end();
  })();
});
const answers = [];
for (let i = 0; i < tries; i++) answers.push(await post(new http.Agent({ keepAlive: true })));
for (let i = 0; i < tries; i++) answers.push(await post(false));
console.log(JSON.stringify(answers));
`;

describe('a JSON body over the limit (1 MiB)', () => {
  it('answers 413 naming the limit: 10 of 10 tries read it, with keep-alive and without', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', CLIENT, String(port), '10'],
      { maxBuffer: 1024 * 1024 },
    );
    const answers = JSON.parse(stdout) as { status?: number; text?: string; error?: string }[];
    expect(answers.map((answer) => answer.status ?? answer.error)).toEqual(Array(20).fill(413));
    for (const answer of answers) {
      const { error } = JSON.parse(answer.text ?? '{}');
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toMatch(/at most 1,048,576 bytes/);
    }
  });
});
