import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_test', maxRetries: 0 });
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const rotated = (previous: string | null) => ({
  id: 'we_1',
  url: 'https://hooks.example.com/scrub',
  events: ['job.completed', 'job.failed'],
  description: '',
  created_at: '2026-11-27T10:00:00.000Z',
  secret: 'whsec_new',
  previous_secret_expires_at: previous,
});

describe('webhooks.rotateSecret', () => {
  it("sends the grace the caller gives and answers until when the old secret signs; none: the service's day", async () => {
    const scope = nock(BASE)
      .post('/webhook-endpoints/we_1/rotate-secret', { grace_seconds: 3600 })
      .reply(200, rotated('2026-11-27T11:00:00.000Z'))
      .post('/webhook-endpoints/we_1/rotate-secret', (body) => body === '' || Object.keys(body).length === 0)
      .reply(200, rotated('2026-11-28T10:00:00.000Z'));
    const withGrace = await scrub().webhooks.rotateSecret('we_1', { grace_seconds: 3600 });
    expect(withGrace).toMatchObject({
      secret: 'whsec_new',
      previous_secret_expires_at: '2026-11-27T11:00:00.000Z',
    });
    const byDefault = await scrub().webhooks.rotateSecret('we_1');
    expect(byDefault.previous_secret_expires_at).toBe('2026-11-28T10:00:00.000Z');
    expect(scope.isDone()).toBe(true);
  });
});
