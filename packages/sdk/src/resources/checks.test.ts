import type { CheckLogEntry } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_key', maxRetries: 0 });
const check = (n: number): CheckLogEntry => ({
  id: String(n),
  checked_at: '2026-11-27T10:00:00.000Z',
  input: `201555000${n}`,
  phone_number: `+1201555000${n}`,
  line_type: 'mobile',
  dnc: 1,
  cached: false,
  credits: 1,
  kind: 'single',
  source: 'api_key',
  api_key_id: 'key-1',
  acting_admin_id: null,
  answer: {},
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('checks (the phone log)', () => {
  it('lists one page with await, and every check of every page with for await, filters kept', async () => {
    const scope = nock(BASE)
      .get('/checks')
      .query({ page: '1', dnc: '1', from: '2026-11-01' })
      .reply(200, { checks: [check(1), check(2)], page: 1, limit: 2, total_pages: 2, total: 3 })
      .get('/checks')
      .query({ page: '2', dnc: '1', from: '2026-11-01' })
      .reply(200, { checks: [check(3)], page: 2, limit: 2, total_pages: 2, total: 3 });
    const inputs: string[] = [];
    for await (const c of scrub().checks.list({ dnc: '1', from: '2026-11-01' })) inputs.push(c.input);
    expect(inputs).toEqual(['2015550001', '2015550002', '2015550003']);
    scope.done();

    nock(BASE)
      .get('/checks')
      .query({ page: '1' })
      .reply(200, { checks: [check(1)], page: 1, limit: 50, total_pages: 1, total: 1 });
    const page = await scrub().checks.list();
    expect(page.total).toBe(1);
    expect(page.hasNextPage()).toBe(false);
  });

  it('exports the filtered log as CSV', async () => {
    nock(BASE)
      .get('/checks.csv')
      .query({ source: 'token' })
      .reply(200, 'Checked At,Input\r\n', { 'content-type': 'text/csv' });
    const stream = await scrub().checks.export({ source: 'token' });
    expect(await new Response(stream).text()).toBe('Checked At,Input\r\n');
  });
});
