import type { UsageFigures, UsageReport } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_key', maxRetries: 0 });
const figures = (checks: number): UsageFigures => ({
  checks: { api_key: checks, dashboard: 0, batch: 0, bulk: 0, total: checks },
  line_types: { mobile: checks },
  dnc: { checked: checks, hits: 0, hit_rate: checks === 0 ? null : 0 },
  credits: { spent: checks, bought: 0 },
  jobs: 0,
  cached: 0,
  free: 0,
});
const report: UsageReport = {
  from: '2026-11-23',
  to: '2026-11-29',
  interval: 'week',
  accounts: [{ id: 'a-1', email: 'a@example.com', name: 'A', role: 'User', figures: figures(3) }],
  intervals: [{ start: '2026-11-23', ...figures(3) }],
  total: figures(3),
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('usage (Client Performance)', () => {
  it('reads the figures with the range, interval and account asked for', async () => {
    const scope = nock(BASE)
      .get('/usage')
      .query({ from: '2026-11-23', to: '2026-11-29', interval: 'week', account: 'a-1' })
      .reply(200, report);
    const answer = await scrub().usage.get({
      from: '2026-11-23',
      to: '2026-11-29',
      interval: 'week',
      account: 'a-1',
    });
    expect(answer.total.checks.total).toBe(3);
    expect(answer.intervals[0]!.start).toBe('2026-11-23');
    scope.done();
  });

  it('turns a refusal into a typed error', async () => {
    nock(BASE)
      .get('/usage')
      .query({ account: 'someone' })
      .reply(404, {
        error: { code: 'not_found', message: 'No account with this id is yours to read.' },
        message: 'x',
      });
    await expect(scrub().usage.get({ account: 'someone' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('exports the figures as CSV', async () => {
    nock(BASE)
      .get('/usage.csv')
      .query({ interval: 'day' })
      .reply(200, 'Account,Start\r\n', { 'content-type': 'text/csv' });
    const stream = await scrub().usage.export({ interval: 'day' });
    expect(await new Response(stream).text()).toBe('Account,Start\r\n');
  });
});
