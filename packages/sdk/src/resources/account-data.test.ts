import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';
import { PermissionDeniedError } from '../errors.js';

const BASE = 'http://scrub.test';
const KEY = 'scrub_test_key';
const client = () => new Scrub({ baseURL: BASE, apiKey: KEY, maxRetries: 0 });

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('account.export and account.delete', () => {
  it('reads the whole export', async () => {
    const bundle = { exported_at: '2026-03-01T00:00:00.000Z', files: [], purchases: [], checks: [] };
    nock(BASE).matchHeader('x-api-key', KEY).get('/account/export').reply(200, bundle);

    await expect(client().account.export()).resolves.toMatchObject(bundle);
  });

  it('sends the typed e-mail address and answers the tombstone', async () => {
    const answer = { message: 'Your account was deleted.', tombstone_id: 'deleted-1' };
    nock(BASE)
      .matchHeader('x-api-key', KEY)
      .delete('/account', { confirm_email: 'pat@example.com' })
      .reply(200, answer);

    await expect(client().account.delete('pat@example.com')).resolves.toEqual(answer);
  });

  it('is a PermissionDeniedError for an acting session', async () => {
    const message = 'Acting sessions cannot do this.';
    nock(BASE)
      .delete('/account')
      .reply(403, { error: { code: 'forbidden', message }, message });

    await expect(client().account.delete('pat@example.com')).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
