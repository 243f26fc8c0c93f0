import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { loadConfig } from '../config/config.js';
import { RateLimiter } from '../http/rate-limiter.js';
import { CONTACT_MESSAGES_PER_HOUR } from './service.js';

const OPERATOR = 'help@scrub.example';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ contactEmail: OPERATOR });
});
afterAll(() => t.close());

const message = {
  name: 'Pat Doe',
  email: 'pat@example.com',
  subject: 'Invoices',
  message: 'Where are they?',
};

/** POST /contact from one client address (`inject` takes it as the socket's). */
async function send(payload: object, remoteAddress = '203.0.113.1') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/contact',
    payload,
    remoteAddress,
  } as InjectOptions);
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const outbox = () =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'contact').orderBy('id').execute();

describe('POST /contact', () => {
  it('mails the message to the operator through the outbox', async () => {
    const { status, body } = await send(message, '203.0.113.10');

    expect(status).toBe(200);
    expect(body.message).toMatch(/Thank you/);
    const mail = (await outbox()).at(-1);
    expect(mail).toMatchObject({ to_address: OPERATOR, subject: 'Contact form: Invoices' });
    expect(mail?.text_body).toContain('From: Pat Doe <pat@example.com>');
    expect(mail?.text_body).toContain('Where are they?');
  });

  it.each([
    ['name', { ...message, name: '  ' }, 'Name is required'],
    ['email', { ...message, email: '' }, 'Email is required'],
    ['email', { ...message, email: 'not-an-address' }, 'Invalid email address'],
    ['subject', { ...message, subject: 'two\nlines' }, 'Subject must be one line'],
    ['message', { name: 'Pat', email: 'pat@example.com', subject: 'Hi' }, ''],
  ])('refuses a bad %s with a 400 naming it', async (field, payload, words) => {
    const before = (await outbox()).length;
    const { status, body } = await send(payload, '203.0.113.20');

    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues[0].path).toBe(field);
    expect(body.error.message).toContain(field);
    if (words) expect(body.error.message).toContain(words);
    expect(await outbox()).toHaveLength(before);
  });

  it(`takes ${CONTACT_MESSAGES_PER_HOUR} messages an hour from one address, then answers 429 with Retry-After`, async () => {
    for (let i = 0; i < CONTACT_MESSAGES_PER_HOUR; i++)
      expect((await send(message, '198.51.100.7')).status).toBe(200);

    const refused = await send(message, '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    // Another address is not held back by it.
    expect((await send(message, '198.51.100.8')).status).toBe(200);
  });
});

describe('the contact recipient and the limiter', () => {
  it('is SCRUB_CONTACT_EMAIL, else the first admin, else the documented default', () => {
    expect(
      loadConfig({ SCRUB_CONTACT_EMAIL: 'ops@x.example', SCRUB_ADMIN_EMAILS: 'a@x.example' }).contactEmail,
    ).toBe('ops@x.example');
    expect(loadConfig({ SCRUB_ADMIN_EMAILS: 'First@x.example,b@x.example' }).contactEmail).toBe(
      'first@x.example',
    );
    expect(loadConfig({}).contactEmail).toBe('support@scrub.localhost');
  });

  it('opens a new window once the old one ends, and forgets ended ones', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 1000, () => now);
    expect([limiter.hit('a'), limiter.hit('a'), limiter.hit('a')]).toEqual([0, 0, 1]);
    now = 999;
    expect(limiter.hit('a')).toBe(1);
    now = 1000;
    expect(limiter.hit('a')).toBe(0);
  });
});
