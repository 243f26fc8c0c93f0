import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ResultRowsQuerySchema } from '@scrub/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3TestServer } from '../../test/s3-test-server.js';
import type { BlobStore } from '../blob-store/blob-store.js';
import { setUpBlobStore } from '../blob-store/setup.js';
import { loadConfig } from '../config/config.js';
import type { JobRow } from './job-store.js';
import { ResultRows, resultIndexKey } from './result-rows.js';

const LINE_TYPES = ['mobile', 'landline', 'voip', 'invalid'];

/** A result of `rows` rows: row n is named `Lead n`, e-mailed `lead-n@example.com`, DNC on every third. */
function result(rows: number): string {
  const lines = ['Name,Email,Phone,Line Type,DNC'];
  for (let n = 1; n <= rows; n++) {
    const name = n % 10 === 0 ? `"Lead ${n}, Jr."` : `Lead ${n}`;
    lines.push(
      `${name},lead-${n}@example.com,201${String(n).padStart(7, '0')},${LINE_TYPES[n % 4]},${n % 3 === 0 ? 1 : 0}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const job = (resultKey: string) =>
  ({
    result_key: resultKey,
    file_reference: 'ref-1',
    file_method: 'api',
    phone_col: 'Phone',
    mapping: { full_name: 'Name', email: 'email' },
  }) as unknown as JobRow;

const query = (input: Record<string, unknown>) => ResultRowsQuerySchema.parse(input);

async function localStore() {
  const dir = mkdtempSync(join(tmpdir(), 'scrub-review-'));
  const config = loadConfig({}, { blobStore: { kind: 'local', dir } });
  const app = Fastify();
  return {
    store: await setUpBlobStore(app, config, () => 'http://127.0.0.1:1'),
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function s3Store() {
  const s3 = await startS3TestServer();
  vi.stubEnv('AWS_ACCESS_KEY_ID', s3.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', s3.secretAccessKey);
  const config = loadConfig({
    SCRUB_S3_BUCKET: s3.bucket,
    SCRUB_S3_REGION: 'us-east-1',
    SCRUB_S3_ENDPOINT: s3.endpoint,
    SCRUB_S3_FORCE_PATH_STYLE: 'true',
  });
  const app = Fastify();
  const store = await setUpBlobStore(app, config, () => 'http://unused.invalid');
  return {
    store,
    async close() {
      await app.close();
      await s3.close();
      vi.unstubAllEnvs();
    },
  };
}

describe.each([
  { name: 'local', start: localStore },
  { name: 's3', start: s3Store },
])('reviewing a result row by row on the $name store', ({ start }) => {
  let store: BlobStore;
  let close: () => Promise<unknown>;
  const key = 'results/review-test.csv';

  beforeAll(async () => {
    ({ store, close } = await start());
    await store.write(key, Readable.from([Buffer.from(result(1234))]), 'text/csv');
  }, 60_000);
  afterAll(() => close?.());

  it('answers any page of the stored result, with where the number and the mapped fields are', async () => {
    const rows = new ResultRows(store);
    const page = await rows.page(job(key), query({ page: 3, per_page: 50 }));
    expect(page.columns).toEqual(['Name', 'Email', 'Phone', 'Line Type', 'DNC']);
    expect(page).toMatchObject({ phone_column: 2, line_type_column: 3, dnc_column: 4, total_rows: 1234 });
    expect(page.total_pages).toBe(25);
    expect(page.mapped).toEqual({ full_name: 0, email: 1 });
    expect(page.rows).toHaveLength(50);
    expect(page.rows[0]).toEqual({
      row: 101,
      cells: ['Lead 101', 'lead-101@example.com', '2010000101', 'landline', '0'],
    });
    expect(page.rows.at(-1)!.cells[0]).toBe('Lead 150, Jr.');
    const last = await rows.page(job(key), query({ page: 25, per_page: 50 }));
    expect(last.rows.map((row) => row.row)).toEqual(Array.from({ length: 34 }, (_, k) => 1201 + k));
    expect(await store.stat(resultIndexKey(key))).not.toBeNull();
  });

  it('filters on line type and DNC, and searches the number and the mapped fields', async () => {
    const rows = new ResultRows(store);
    const mobileDnc = await rows.page(job(key), query({ line_type: 'mobile', dnc: '1', per_page: 200 }));
    // Rows whose number is a multiple of 4 (mobile) and of 3 (DNC): every 12th.
    expect(mobileDnc.total_rows).toBe(Math.floor(1234 / 12));
    expect(mobileDnc.rows.slice(0, 3).map((row) => row.row)).toEqual([12, 24, 36]);
    expect(mobileDnc.rows.every((row) => row.cells[3] === 'mobile' && row.cells[4] === '1')).toBe(true);
    const byName = await rows.page(job(key), query({ search: 'LEAD 77' }));
    expect(byName.rows.map((row) => row.row)).toEqual([77, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779]);
    const byNumber = await rows.page(job(key), query({ search: '(201) 000-1200' }));
    expect(byNumber.rows.map((row) => row.row)).toEqual([1200]);
    const byEmail = await rows.page(job(key), query({ search: 'lead-1233@', dnc: '0' }));
    expect(byEmail.rows.map((row) => row.row)).toEqual([]);
  });

  it('makes the index once, keeps it, and reads it back in a new process', async () => {
    const again = new ResultRows(store);
    const page = await again.page(job(key), query({ page: 2, per_page: 3 }));
    expect(page.rows.map((row) => row.row)).toEqual([4, 5, 6]);
  });
});
