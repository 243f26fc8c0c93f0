import type { CreditHistoryEntry } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_key', maxRetries: 0 });
const entry = (n: number, delta: number, balance: number): CreditHistoryEntry => ({
  id: String(n),
  created_at: '2026-11-27T10:00:00.000Z',
  kind: delta > 0 ? 'reversal' : 'bulk_charge',
  label: delta > 0 ? 'Given back' : 'Bulk job',
  delta,
  balance_after: balance,
  reference: 'job-1',
  note: null,
  reason: delta > 0 ? 'duplicates' : null,
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('credits.history (the credit ledger)', () => {
  it('lists one page with await, and every entry of every page with for await, the month kept', async () => {
    const scope = nock(BASE)
      .get('/credits/history')
      .query({ page: '1', month: '2026-11' })
      .reply(200, {
        entries: [entry(3, 3, 93), entry(2, -10, 90)],
        page: 1,
        limit: 2,
        total_pages: 2,
        total: 3,
      })
      .get('/credits/history')
      .query({ page: '2', month: '2026-11' })
      .reply(200, { entries: [entry(1, -5, 100)], page: 2, limit: 2, total_pages: 2, total: 3 });
    const balances: number[] = [];
    for await (const e of scrub().credits.history({ month: '2026-11' })) balances.push(e.balance_after);
    expect(balances).toEqual([93, 90, 100]);
    scope.done();

    nock(BASE)
      .get('/credits/history')
      .query({ page: '1' })
      .reply(200, { entries: [entry(1, 3, 93)], page: 1, limit: 50, total_pages: 1, total: 1 });
    const page = await scrub().credits.history();
    expect(page.total).toBe(1);
    expect(page.hasNextPage()).toBe(false);
  });

  it('exports the history of a month as CSV', async () => {
    nock(BASE)
      .get('/credits/history.csv')
      .query({ month: '2026-11' })
      .reply(200, 'Date,Entry\r\n', { 'content-type': 'text/csv' });
    const stream = await scrub().credits.exportHistory({ month: '2026-11' });
    expect(await new Response(stream).text()).toBe('Date,Entry\r\n');
  });
});
