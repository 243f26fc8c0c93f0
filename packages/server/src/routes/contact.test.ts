import { ContactChallengeSchema } from '@scrub/contract';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { loadConfig } from '../config/config.js';
import { RateLimiter } from '../http/rate-limiter.js';
import { CONTACT_MESSAGES_PER_HOUR } from './service.js';

const OPERATOR = 'help@scrub.example';

const message = {
  name: 'Pat Doe',
  email: 'pat@example.com',
  subject: 'Invoices',
  message: 'Where are they?',
};

describe.each(testDatabases())('POST /contact on $kind', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ contactEmail: OPERATOR }, { database: await kind.open() });
  });
  afterAll(() => t?.close());

  /** A challenge from the service, solved as the dashboard solves it, as the `altcha` field's payload. */
  async function solved(): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url: '/contact/challenge' });
    expect(res.headers['cache-control']).toBe('no-store');
    const challenge = ContactChallengeSchema.parse(res.json());
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

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

  it('mails the message with a solved human check to the operator through the outbox', async () => {
    const { status, body } = await send({ ...message, altcha: await solved() }, '203.0.113.10');

    expect(status).toBe(200);
    expect(body.message).toMatch(/Thank you/);
    const mail = (await outbox()).at(-1);
    expect(mail).toMatchObject({ to_address: OPERATOR, subject: 'Contact form: Invoices' });
    expect(mail?.text_body).toContain('From: Pat Doe <pat@example.com>');
    expect(mail?.text_body).toContain('Where are they?');
  });

  it('refuses a missing, made-up, tampered or reused human check with a 400 naming altcha, and mails nothing', async () => {
    const before = (await outbox()).length;
    const missing = await send(message, '203.0.113.11');
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues[0].path).toBe('altcha');

    const madeUp = await send({ ...message, altcha: 'MyAnswerIs7' }, '203.0.113.11');
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.error.message).toMatch(/altcha.*not a solved human check/);

    const payload = JSON.parse(Buffer.from(await solved(), 'base64').toString('utf8'));
    payload.solution.derivedKey = payload.solution.derivedKey.replace(/^./, (c: string) =>
      c === '0' ? '1' : '0',
    );
    const tampered = await send(
      { ...message, altcha: Buffer.from(JSON.stringify(payload)).toString('base64') },
      '203.0.113.11',
    );
    expect(tampered.body.error.message).toMatch(/human check failed/);

    const once = await solved();
    expect((await send({ ...message, altcha: once }, '203.0.113.12')).status).toBe(200);
    const again = await send({ ...message, altcha: once }, '203.0.113.13');
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/already used/);
    expect(await outbox()).toHaveLength(before + 1);
  });

  it.each([
    ['name', { ...message, name: '  ' }, 'Name is required'],
    ['email', { ...message, email: '' }, 'Email is required'],
    ['email', { ...message, email: 'not-an-address' }, 'Invalid email address'],
    ['subject', { ...message, subject: 'two\nlines' }, 'Subject must be one line'],
    ['message', { name: 'Pat', email: 'pat@example.com', subject: 'Hi' }, ''],
  ])('refuses a bad %s with a 400 naming it', async (field, payload, words) => {
    const before = (await outbox()).length;
    const { status, body } = await send({ ...payload, altcha: await solved() }, '203.0.113.20');

    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues[0].path).toBe(field);
    expect(body.error.message).toContain(field);
    if (words) expect(body.error.message).toContain(words);
    expect(await outbox()).toHaveLength(before);
  });

  it(`takes ${CONTACT_MESSAGES_PER_HOUR} messages an hour from one address, counted in the database, then answers 429 with Retry-After`, async () => {
    for (let i = 0; i < CONTACT_MESSAGES_PER_HOUR; i++)
      expect((await send({ ...message, altcha: await solved() }, '198.51.100.7')).status).toBe(200);

    const refused = await send({ ...message, altcha: await solved() }, '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    const counted = await t.database.db
      .selectFrom('rate_limit_windows')
      .select('hits')
      .where('bucket', '=', 'contact:198.51.100.7')
      .executeTakeFirst();
    expect(counted?.hits).toBeGreaterThanOrEqual(CONTACT_MESSAGES_PER_HOUR);
    // Another address is not held back by it.
    expect((await send({ ...message, altcha: await solved() }, '198.51.100.8')).status).toBe(200);
  });
});

describe('a human check made by another process', () => {
  it('is refused when the key differs, and accepted when SCRUB_CAPTCHA_HMAC_KEY is shared', async () => {
    const shared = 'k'.repeat(40);
    const a = await createTestApp({ captchaHmacKey: shared });
    const b = await createTestApp({ captchaHmacKey: shared });
    const c = await createTestApp();
    try {
      const challenge = ContactChallengeSchema.parse(
        (await a.app.inject({ method: 'GET', url: '/contact/challenge' })).json(),
      );
      const solution = await solveChallenge({ challenge, deriveKey });
      const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      const post = (app: TestApp) =>
        app.app.inject({ method: 'POST', url: '/contact', payload: { ...message, altcha } });
      expect((await post(c)).statusCode).toBe(400);
      expect((await post(b)).statusCode).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
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
    expect(loadConfig({ SCRUB_CAPTCHA_HMAC_KEY: 's'.repeat(32) }).captchaHmacKey).toBe('s'.repeat(32));
    expect(() => loadConfig({ SCRUB_CAPTCHA_HMAC_KEY: 'short' })).toThrow(/SCRUB_CAPTCHA_HMAC_KEY/);
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
