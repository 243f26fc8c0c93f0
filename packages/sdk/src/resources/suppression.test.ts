import type { DncChange, DncNumberList } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const change: DncChange = {
  changed: 1,
  unchanged: 0,
  rejected: [],
  rejected_count: 0,
  summary: { count: 1, operator_count: 0, updated_at: '2026-11-25T16:00:00.000Z', list_name: 'internal' },
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

it('sends a CSV given as bytes or a Blob as its text', async () => {
  const scrub = new Scrub({ baseURL: BASE, apiKey: 'scrub_test' });
  const bodies: unknown[] = [];
  const scope = nock(BASE)
    .post('/dnc/import', (body) => bodies.push(body) > 0)
    .times(2)
    .reply(200, change);

  await scrub.suppression.import(new TextEncoder().encode('Phone\n2015550123\n'), { phone_col: 'Phone' });
  await scrub.suppression.import(new Blob(['2015550124\n']), { mode: 'replace' });

  expect(bodies).toEqual([
    { csv_content: 'Phone\n2015550123\n', phone_col: 'Phone' },
    { csv_content: '2015550124\n', mode: 'replace' },
  ]);
  scope.done();
});

it('iterates every number of every page of the list', async () => {
  const page = (n: number, numbers: string[]): DncNumberList => ({
    numbers: numbers.map((phone_number) => ({ phone_number, added_at: '2026-11-25T16:00:00.000Z' })),
    page: n,
    total_pages: 2,
    total_count: 3,
  });
  const scope = nock(BASE)
    .get('/dnc/numbers')
    .query({ page: '1', search: '201' })
    .reply(200, page(1, ['+12015550123', '+12015550124']))
    .get('/dnc/numbers')
    .query({ page: '2', search: '201' })
    .reply(200, page(2, ['+12015550125']));

  const seen: string[] = [];
  for await (const entry of new Scrub({ baseURL: BASE, apiKey: 'scrub_test' }).suppression.list({
    search: '201',
  })) {
    seen.push(entry.phone_number);
  }
  expect(seen).toEqual(['+12015550123', '+12015550124', '+12015550125']);
  scope.done();
});

it('imports a list over 1 MiB by upload: an import, the PUT to its URL (no credentials), then the submit', async () => {
  const scrub = new Scrub({ baseURL: BASE, apiKey: 'scrub_test', maxRetries: 0 });
  const csv = `Phone\n${'2015550123\n'.repeat(100_000)}`;
  let put: string | undefined;
  const scope = nock(BASE)
    .post('/dnc/imports', { phone_col: 'Phone', mode: 'replace' })
    .reply(201, {
      import_id: 'dni_1',
      upload_url: `${BASE}/uploads/x.csv?signature=s`,
      upload_expires_at: '2026-11-27T12:00:00.000Z',
      max_bytes: 1_000_000_000,
    })
    .post('/dnc/imports/dni_1/submit')
    .reply(200, change);
  // The URL's signature is the only credential: no API key goes with the file.
  const upload = nock(BASE, { badheaders: ['x-api-key'] })
    .matchHeader('content-type', 'text/csv')
    .put('/uploads/x.csv', (body) => {
      put = typeof body === 'string' ? body : JSON.stringify(body);
      return true;
    })
    .query({ signature: 's' })
    .reply(200, '');

  await expect(scrub.suppression.import(csv, { phone_col: 'Phone', mode: 'replace' })).resolves.toEqual(
    change,
  );
  expect(put).toBe(csv);
  scope.done();
  upload.done();
});
