import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { FileView } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';
import { APIConnectionError, APIUserAbortError, ConflictError, NotFoundError } from '../errors.js';
import type { FileListParams } from './files.js';

const BASE = 'http://scrub.test';
const KEY = 'scrub_test_key';

function file(n: number): FileView {
  return {
    file_reference: `ref_${n}`,
    file_name: `leads-${n}.csv`,
    file_url: `${BASE}/files/ref_${n}/result`,
    last_updated: '2026-03-01T12:00:05.000Z',
    created_at: '2026-03-01T12:00:00.000Z',
    status: 'completed',
    total_records: 10,
    processed_rows: 10,
    duplicates: 1,
    credits_reversed: 0,
    credits_charged: 9,
    file_method: 'api',
    uploaded_file: `${BASE}/files/ref_${n}/upload`,
    line_types: { mobile: 10 },
    dnc_status: { '0': 10 },
    file_message: null,
    error: null,
    part_url: null,
  };
}

/** Seven files, three to a page, as the API pages them. */
function filesServer(query: FileListParams = {}) {
  const all = [1, 2, 3, 4, 5, 6, 7].map(file);
  const requested: number[] = [];
  nock(BASE)
    .matchHeader('x-api-key', KEY)
    .persist()
    .get('/files')
    .query(true)
    .reply((request: Request) => {
      const params = new URL(request.url).searchParams;
      for (const [name, value] of Object.entries(query)) expect(params.get(name)).toBe(String(value));
      const page = Number(params.get('page'));
      requested.push(page);
      return [
        200,
        {
          files: all.slice((page - 1) * 3, page * 3),
          page,
          total_pages: 3,
          total_files_count: all.length,
        },
      ];
    });
  return requested;
}

const client = () => new Scrub({ baseURL: BASE, apiKey: KEY, maxRetries: 0 });

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('files.list', () => {
  it('answers one page when awaited, with the way to the next', async () => {
    const requested = filesServer({ search: 'leads', limit: 3 });

    const page = await client().files.list({ search: 'leads', limit: 3 });

    expect(page.files.map((one) => one.file_reference)).toEqual(['ref_1', 'ref_2', 'ref_3']);
    expect(page).toMatchObject({ page: 1, total_pages: 3, total_files_count: 7 });
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.files.map((one) => one.file_reference)).toEqual(['ref_4', 'ref_5', 'ref_6']);
    expect(JSON.parse(JSON.stringify(next))).toEqual({
      files: next.files,
      page: 2,
      total_pages: 3,
      total_files_count: 7,
    });
    expect(requested).toEqual([1, 2]);
  });

  it('iterates over every file of every page, fetching each page once', async () => {
    const requested = filesServer({ search: 'leads', limit: 3 });

    const references: string[] = [];
    for await (const one of client().files.list({ search: 'leads', limit: 3 })) {
      references.push(one.file_reference);
    }

    expect(references).toEqual(['ref_1', 'ref_2', 'ref_3', 'ref_4', 'ref_5', 'ref_6', 'ref_7']);
    expect(requested).toEqual([1, 2, 3]);
  });

  it('iterates from the page asked for, and from a page already fetched', async () => {
    const requested = filesServer();

    const fromTwo: string[] = [];
    for await (const one of client().files.list({ page: 2 })) fromTwo.push(one.file_reference);
    const third = await client().files.list({ page: 3 });
    const fromThree: string[] = [];
    for await (const one of third) fromThree.push(one.file_reference);

    expect(fromTwo).toEqual(['ref_4', 'ref_5', 'ref_6', 'ref_7']);
    expect(fromThree).toEqual(['ref_7']);
    expect(requested).toEqual([2, 3, 3]);
  });

  it('asks for nothing until the list is used', async () => {
    const requested = filesServer();

    const list = client().files.list();
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(requested).toEqual([]);
    await list;
    await list;
    expect(requested).toEqual([1]);
  });
});

describe('files.get', () => {
  it('reads one file by reference without credentials', async () => {
    nock(BASE).get('/files/ref_1').reply(200, file(1));

    const anonymous = new Scrub({ baseURL: BASE, apiKey: null });

    await expect(anonymous.files.get('ref_1')).resolves.toEqual(file(1));
  });
});

describe('files.download', () => {
  it('streams the result, filtered by the service', async () => {
    nock(BASE)
      .get('/files/ref_1/result')
      .query({ line_type: 'mobile', dnc: '0' })
      .reply(200, 'Name,Phone,Line Type,DNC\nAda,2015550123,mobile,0\n', { 'content-type': 'text/csv' });

    const stream = await client().files.download('ref_1', { lineType: 'mobile', dnc: 0 });

    expect(await text(stream)).toBe('Name,Phone,Line Type,DNC\nAda,2015550123,mobile,0\n');
  });

  it('filters on the calling window (callable_now) with the other filters', async () => {
    nock(BASE)
      .get('/files/ref_1/result')
      .query({ dnc: '0', callable_now: '1' })
      .reply(200, 'Name,Phone,Line Type,DNC,Callable Now\nAda,2015550123,mobile,0,1\n');

    const stream = await client().files.download('ref_1', { dnc: '0', callableNow: 1 });

    expect(await text(stream)).toBe('Name,Phone,Line Type,DNC,Callable Now\nAda,2015550123,mobile,0,1\n');
  });

  it('sends several line types as one comma-separated filter', async () => {
    nock(BASE)
      .get('/files/ref_1/result')
      .query({ line_type: 'mobile,landline' })
      .reply(200, 'Name,Phone,Line Type,DNC\n');

    const stream = await client().files.download('ref_1', { lineType: ['mobile', 'landline'] });

    expect(await text(stream)).toBe('Name,Phone,Line Type,DNC\n');
  });

  it('sends no filter that was left out', async () => {
    nock(BASE)
      .get('/files/ref_1/result')
      .query((query) => Object.keys(query).length === 0)
      .reply(200, 'Name,Phone,Line Type,DNC\n');

    expect(await text(await client().files.download('ref_1'))).toBe('Name,Phone,Line Type,DNC\n');
  });

  it('streams the upload as it was sent', async () => {
    nock(BASE).get('/files/ref_1/upload').reply(200, 'Name;Phone\r\n');

    expect(await text(await client().files.downloadUpload('ref_1'))).toBe('Name;Phone\r\n');
  });

  it.each([
    [409, 'results_not_ready', 'Results not ready', ConflictError],
    [404, 'file_not_found', 'No file found', NotFoundError],
  ])('throws the typed error for %i %s', async (status, code, message, ErrorClass) => {
    nock(BASE).get('/files/ref_1/result').reply(status, { error: { code, message }, message });

    const error = await client()
      .files.download('ref_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ code, message: `${status} ${message}` });
  });

  it('ends the stream with APIUserAbortError when the signal aborts mid-body', async () => {
    // The first line, then nothing: the body is still being read when the signal aborts.
    nock(BASE)
      .get('/files/ref_1/result')
      .reply(200, () => {
        const body = new Readable({ read() {} });
        body.push('Name,Phone,Line Type,DNC\n');
        return body;
      });
    const controller = new AbortController();
    const scrub = new Scrub({ baseURL: BASE, apiKey: KEY });

    const reader = (await scrub.files.download('ref_1', { signal: controller.signal })).getReader();
    await reader.read();
    controller.abort();

    await expect(reader.read()).rejects.toThrow(APIUserAbortError);
  });

  it('ends the stream with APIConnectionError when the connection breaks off', async () => {
    // A real connection cut mid-body: nock ends a reply stream quietly however it fails.
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' });
      response.write('Name,Phone\n', () => response.socket?.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    nock.enableNetConnect('127.0.0.1');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const scrub = new Scrub({ baseURL: origin, apiKey: KEY });

    try {
      const error = await text(await scrub.files.download('ref_1')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(new RegExp(`^The download from ${origin} broke off: .+`));
    } finally {
      nock.disableNetConnect();
      server.close();
    }
  });
});

describe('files.delete', () => {
  it("deletes a file's upload and result, answering its view with when and why", async () => {
    const removed = { ...file(1), removed_at: '2026-03-02T00:00:00.000Z', removed_by: 'customer' as const };
    nock(BASE).matchHeader('x-api-key', KEY).delete('/files/ref_1').reply(200, removed);

    await expect(client().files.delete('ref_1')).resolves.toEqual(removed);
  });

  it('is a ConflictError while the job runs', async () => {
    const message = 'This file is being scrubbed: delete it once its job has completed or failed.';
    nock(BASE)
      .delete('/files/ref_1')
      .reply(409, { error: { code: 'conflict', message }, message });

    await expect(client().files.delete('ref_1')).rejects.toBeInstanceOf(ConflictError);
  });

  it('a download of a deleted file is a 410 saying when and why', async () => {
    const message = "This file's upload and result were deleted on 2026-03-02: its owner deleted it.";
    nock(BASE)
      .get('/files/ref_1/result')
      .reply(410, { error: { code: 'file_expired', message }, message });

    await expect(client().files.download('ref_1')).rejects.toMatchObject({
      status: 410,
      code: 'file_expired',
      serviceMessage: message,
    });
  });
});

describe('files.rows (a bulk result reviewed row by row)', () => {
  const page = (n: number, rows: number[]) => ({
    file_reference: 'ref',
    columns: ['Name', 'Phone', 'Line Type', 'DNC'],
    phone_column: 1,
    line_type_column: 2,
    dnc_column: 3,
    mapped: { full_name: 0 },
    rows: rows.map((row) => ({ row, cells: [`Lead ${row}`, '2012345678', 'mobile', '1'] })),
    page: n,
    per_page: 2,
    total_pages: 2,
    total_rows: 3,
  });

  it('reads one page with await, and every row of every page with for await, filters kept', async () => {
    const scope = nock(BASE)
      .get('/files/ref/rows')
      .query({ page: '1', per_page: '2', dnc: '1', search: 'lead' })
      .reply(200, page(1, [1, 2]))
      .get('/files/ref/rows')
      .query({ page: '2', per_page: '2', dnc: '1', search: 'lead' })
      .reply(200, page(2, [3]));
    const names: string[] = [];
    for await (const row of new Scrub({ baseURL: BASE, apiKey: KEY, maxRetries: 0 }).files.rows('ref', {
      per_page: 2,
      dnc: '1',
      search: 'lead',
    }))
      names.push(row.cells[0]!);
    expect(names).toEqual(['Lead 1', 'Lead 2', 'Lead 3']);
    scope.done();

    nock(BASE)
      .get('/files/ref/rows')
      .query({ page: '2' })
      .reply(200, page(2, [3]));
    const second = await new Scrub({ baseURL: BASE, apiKey: KEY, maxRetries: 0 }).files.rows('ref', {
      page: 2,
    });
    expect(second.mapped).toEqual({ full_name: 0 });
    expect(second.hasNextPage()).toBe(false);
  });
});
