import { BulkJobSchema, CreatedBulkJobSchema } from '@scrub/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

/** Prometheus's text format read back: each sample's value by its name and labels (sorted). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, name, value]) => `${name}=${value}`)
      .sort();
    found.set(`${match[1]}{${labels.join(',')}}`, Number(match[3]));
  }
  return found;
}

const LEADS = [
  'Name,Phone',
  'Ann,(201) 234-5678',
  'Bob,201.234.5678',
  'Cid,800-555-1234',
  'Dee,123-456-7890',
].join('\r\n');

describe.each(testDatabases())('GET /metrics after real traffic on $kind', (kind) => {
  let t: TestApp;
  let headers: Record<string, string>;
  let before: Map<string, number>;

  const scrape = async () => {
    const res = await fetch(t.app.metricsUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  /** How much a sample grew since `before` (the registry is the process's, shared by both runs). */
  const grew = (after: Map<string, number>, key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);

  beforeAll(async () => {
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        metrics: { port: 0, host: '127.0.0.1' },
      },
      { database: await kind.open() },
    );
    const { id } = await ensureProfile(t.database.db, {
      sub: 'metrics-1',
      email: 'metrics@example.com',
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 50, kind: 'grant' });
    headers = { 'x-api-key': (await rotateApiKey(t.database.db, id)).api_key };
    before = samples(await scrape());
  }, 60_000);
  afterAll(() => t?.close());

  it('counts requests, checks, credits and rows as the ledger and the jobs table record them', async () => {
    for (const p of ['2012345678', '2012345678', '8005551234', '123']) {
      await t.app.inject({ method: 'GET', url: '/verify', query: { p }, headers });
    }
    const batch = await t.app.inject({
      method: 'POST',
      url: '/verify',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ phones: ['2025550143', '2125550199'] }),
    });
    expect(batch.statusCode).toBe(200);

    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'leads.csv', phone_col: 'Phone' },
    });
    const job = CreatedBulkJobSchema.parse(created.json());
    const upload = new URL(job.upload_url!);
    await t.app.inject({
      method: 'PUT',
      url: upload.pathname + upload.search,
      headers: { 'content-type': 'text/csv' },
      payload: LEADS,
    });
    expect(
      (await t.app.inject({ method: 'POST', url: `/bulk/jobs/${job.job_id}/submit`, headers })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 200; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}`, headers });
      if (BulkJobSchema.parse(res.json()).status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // A streamed job (over a real connection: it answers as the rows come): its rows count too.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const streamed = await fetch(`${base}/bulk/jobs/stream?file_name=streamed.csv&phone_col=Phone`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body: LEADS,
    });
    expect(streamed.status).toBe(200);
    await streamed.arrayBuffer();

    const text = await scrape();
    const after = samples(text);
    // Requests by route template, never the raw URL: no job id in any label.
    expect(
      grew(after, 'scrub_http_request_duration_seconds_count{method=GET,route=/verify,status=200}'),
    ).toBe(4);
    expect(
      grew(
        after,
        'scrub_http_request_duration_seconds_count{method=POST,route=/bulk/jobs/:job_id/submit,status=200}',
      ),
    ).toBe(1);
    expect(text).not.toContain(job.job_id);
    // Checks by line type and cache: the repeated number answered from the cache.
    expect(grew(after, 'scrub_checks_total{cached=true,line_type=landline}')).toBe(1);
    expect(grew(after, 'scrub_checks_total{cached=false,line_type=toll_free}')).toBe(1);
    // `123` and the batch's two 555-01xx numbers (fictional, so invalid).
    expect(grew(after, 'scrub_checks_total{cached=false,line_type=invalid}')).toBe(3);

    // Credits against the ledger: every charge and every credit given back.
    const ledger = await sql<{ kind: string; total: number }>`
      select kind, sum(delta)::int8 as total from credit_ledger group by kind`.execute(t.database.db);
    const total = (kind: string) => ledger.rows.find((row) => row.kind === kind)?.total ?? 0;
    expect(grew(after, 'scrub_credits_total{movement=charged}')).toBe(
      -(total('check') + total('bulk_charge')),
    );
    expect(grew(after, 'scrub_credits_total{movement=given_back}')).toBe(total('reversal'));
    expect(total('check')).toBeLessThan(0);
    expect(total('reversal')).toBeGreaterThan(0);

    // Rows and jobs: the table's counts, the queue empty.
    expect(grew(after, 'scrub_rows_scrubbed_total{}')).toBe(8);
    expect(after.get('scrub_bulk_jobs{state=completed}')).toBe(2);
    expect(after.get('scrub_bulk_jobs{state=queued}')).toBe(0);
    expect(after.get('scrub_queue_oldest_job_age_seconds{}')).toBe(0);
    expect(after.get('scrub_data_dir_bytes{state=available}')).toBeGreaterThan(0);
    // Node's own, the event loop's delay among them; the pool on PostgreSQL.
    expect(after.get('scrub_nodejs_eventloop_lag_p99_seconds{}')).toBeGreaterThan(0);
    if (kind.kind === 'postgres')
      expect(after.get('scrub_db_pool_connections{state=total}')).toBeGreaterThan(0);
  }, 60_000);

  it('serves nothing else on the metrics port, and nothing of it on the public one', async () => {
    const other = await fetch(t.app.metricsUrl!.replace('/metrics', '/health'));
    expect(other.status).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});
