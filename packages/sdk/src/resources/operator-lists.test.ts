import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

// Operator lists (litigators...): chosen per request, per job, or as the account's default.

const BASE = 'http://scrub.test';
const client = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_test_key', maxRetries: 0 });
const LITIGATORS = { name: 'litigators', listed: true, released_on: '2026-11-01' };
const answer = {
  phone_number: '+12012340002',
  line_type: 'mobile',
  dnc: 0,
  cached: false,
  invalid_reason: null,
  invalid_message: null,
  extension: null,
  dnc_sources: [],
  dnc_lists_checked: ['federal'],
  lists: [LITIGATORS],
  data_source: 'sample',
  dataset_versions: {},
  timezones: [],
  callable_now: null,
  callable_reason: 'test',
};
const settings = {
  lists: ['litigators'],
  available: [{ name: 'litigators', version: 'v1', released_on: '2026-11-01', numbers: 2 }],
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('operator lists', () => {
  it('sends a check’s lists in the query and a batch’s in the body, and reads the answers', async () => {
    const scope = nock(BASE)
      .get('/verify')
      .query({ p: '2012340002', lists: 'litigators,vendor-x' })
      .reply(200, answer)
      .post('/verify', { phones: ['2012340002'], lists: [] })
      .reply(200, { results: [{ ...answer, lists: [], input: '2012340002' }] })
      .post('/verify', { phones: ['2012340002'], lists: ['litigators'] })
      .reply(200, { results: [{ ...answer, input: '2012340002' }] });
    const scrub = client();
    expect((await scrub.verify('2012340002', { lists: ['litigators', 'vendor-x'] })).lists).toEqual([
      LITIGATORS,
    ]);
    expect((await scrub.verify.batch(['2012340002'], { lists: [] })).results[0]!.lists).toEqual([]);
    for await (const outcome of scrub.verify.many(['2012340002'], { lists: ['litigators'] })) {
      expect(outcome.result?.lists).toEqual([LITIGATORS]);
    }
    scope.done();
  });

  it('reads and sets the account’s default lists', async () => {
    const scope = nock(BASE)
      .get('/user/lists')
      .reply(200, { ...settings, lists: [] })
      .put('/user/lists', { lists: ['litigators'] })
      .reply(200, settings);
    const scrub = client();
    expect((await scrub.account.lists()).available[0]).toMatchObject({ name: 'litigators' });
    expect((await scrub.account.setLists(['litigators'])).lists).toEqual(['litigators']);
    scope.done();
  });
});
