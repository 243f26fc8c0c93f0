import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import { JobSignals } from './job-signals.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let customers = 0;
/** An account with credits: its API key header. */
async function customer(db: Kysely<Database>): Promise<Record<string, string>> {
  customers++;
  const { id } = await ensureProfile(db, {
    sub: `waiter-${customers}`,
    email: `waiter${customers}@example.com`,
    name: '',
    role: 'User',
  });
  await applyLedgerEntry(db, { profileId: id, delta: 5, kind: 'grant' });
  return { 'x-api-key': (await rotateApiKey(db, id)).api_key };
}

for (const testDatabase of testDatabases()) {
  describe(`the bulk queue's signals on ${testDatabase.kind}`, () => {
    // The database, and a second connection to it as another process has (PGlite has one process).
    let here: DatabaseHandle;
    let there: DatabaseHandle;
    beforeAll(async () => {
      const first = await testDatabase.open();
      await migrateToLatest(first.db);
      here = first;
      there = first.url ? await openDatabase({ kind: 'postgres', url: first.url }) : first;
    });
    afterAll(async () => {
      if (there !== here) await there?.close();
      await here?.close();
    });
    const files = () => ({
      blobStore: { kind: 'local' as const, dir: `${tempDir()}/files` },
      dataDir: tempDir(),
    });

    it("carries 'queued' and 'ended' from one process to another", async () => {
      const sender = await JobSignals.open(here, false);
      const receiver = await JobSignals.open(there, false);
      cleanups.push(
        () => sender.close(),
        () => receiver.close(),
      );

      const queued = new Promise<void>((resolve) => receiver.onQueued(resolve));
      const watch = receiver.watchEnd('job-1');
      let otherEnded = false;
      receiver.watchEnd('job-2').ended.then(() => (otherEnded = true));

      await sender.queued();
      await queued;
      await sender.ended('job-1');
      await watch.ended;
      expect(otherEnded).toBe(false);
    });

    it('answers GET /bulk/jobs/{id}?wait= as soon as a worker in another process ends the job', async () => {
      const shared = files();
      const api = await createTestApp({ ...shared, runBulkWorker: false }, { database: here });
      cleanups.push(() => api.app.close());
      const headers = await customer(here.db);
      const created = await api.app.inject({
        method: 'POST',
        url: '/bulk/jobs',
        headers,
        payload: { file_name: 'a.csv', phone_col: 0, header_row: 0, csv_content: '2012345678\n' },
      });
      expect(created.json()).toMatchObject({ status: 'queued' });

      // No worker runs anywhere yet: the answer is held (up to 25 s)...
      const answer = api.app.inject({
        method: 'GET',
        url: `/bulk/jobs/${created.json().job_id}?wait=25`,
        headers,
      });
      // ...until a worker starts in another process and runs the job; a missed end would leave the
      // answer waiting its whole 25 s, past this test's time limit.
      const worker = await createTestApp({ ...shared, runBulkWorker: true }, { database: there });
      cleanups.push(() => worker.app.close());

      expect((await answer).json()).toMatchObject({ status: 'completed', total_rows: 1, processed_rows: 1 });
    }, 20_000);

    it('answers a held GET /bulk/jobs/{id}?wait= with the job as a plain GET then shows it', async () => {
      const app = await createTestApp(files(), { database: here });
      cleanups.push(() => app.app.close());
      const headers = await customer(here.db);
      const created = await app.app.inject({
        method: 'POST',
        url: '/bulk/jobs',
        headers,
        payload: { file_name: 'b.csv', phone_col: 0, header_row: 0, csv_content: '2012345678\n2015550123\n' },
      });
      const url = `/bulk/jobs/${created.json().job_id}`;
      let held = (await app.app.inject({ method: 'GET', url: `${url}?wait=25`, headers })).json();
      while (held.status !== 'completed') {
        held = (await app.app.inject({ method: 'GET', url: `${url}?wait=25`, headers })).json();
      }
      const plain = (await app.app.inject({ method: 'GET', url, headers })).json();
      expect(held).toEqual(plain);
      expect(held).toMatchObject({ status: 'completed', total_rows: 2, credits: { charged: 2 } });
    }, 20_000);

    it('refuses a wait over 25 s, naming the limit', async () => {
      const app = await createTestApp(files(), { database: here });
      cleanups.push(() => app.app.close());
      const headers = await customer(here.db);
      const res = await app.app.inject({ method: 'GET', url: '/bulk/jobs/some-job?wait=26', headers });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain('wait is at most 25 seconds');
    });
  });
}
