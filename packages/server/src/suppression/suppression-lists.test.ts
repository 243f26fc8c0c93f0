import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { SuppressionLists } from './suppression-lists.js';
import { addSuppressedNumbers } from './suppression-store.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const testDatabase of testDatabases()) {
  describe(`suppression lists in two processes on ${testDatabase.kind}`, () => {
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

    let customers = 0;
    async function customer(): Promise<{ profileId: string; headers: Record<string, string> }> {
      customers++;
      const { id } = await ensureProfile(here.db, {
        sub: `two-${customers}`,
        email: `two${customers}@example.com`,
        name: '',
        role: 'User',
      });
      await applyLedgerEntry(here.db, { profileId: id, delta: 10, kind: 'grant' });
      return { profileId: id, headers: { 'x-api-key': (await rotateApiKey(here.db, id)).api_key } };
    }

    async function app(database: DatabaseHandle): Promise<TestApp['app']> {
      const made = await createTestApp(
        { dataDir: tempDir(), runBulkWorker: false },
        { database, referenceData: ReferenceData.sample() },
      );
      cleanups.push(() => made.app.close());
      return made.app;
    }

    it('a number added through one server is counted by the next check on another', async () => {
      const first = await app(here);
      const second = await app(there);
      const { headers } = await customer();
      const check = async () =>
        (await second.inject({ method: 'GET', url: '/verify', query: { p: '2024440301' }, headers })).json();

      // The second server reads the (empty) list into memory before the change.
      expect(await check()).toMatchObject({ dnc: null, dnc_sources: [] });
      const added = await first.inject({
        method: 'POST',
        url: '/dnc/numbers',
        headers,
        payload: { numbers: ['202-444-0301'] },
      });
      expect(added.statusCode).toBe(200);
      // The announcement travels through the database; no query per check waits for it.
      await expect.poll(check, { timeout: 5000, interval: 20 }).toMatchObject({
        dnc: 1,
        dnc_sources: ['internal'],
        dnc_lists_checked: ['internal'],
      });

      await first.inject({
        method: 'POST',
        url: '/dnc/numbers/remove',
        headers,
        payload: { numbers: ['2024440301'] },
      });
      // An empty list is no list: with no other list loaded, nothing covers the number.
      await expect.poll(check, { timeout: 5000, interval: 20 }).toMatchObject({
        dnc: null,
        dnc_sources: [],
        dnc_lists_checked: [],
      });
    });

    it('finds a change it was never told of once its copy is no longer trusted', async () => {
      const { profileId } = await customer();
      const lists = await SuppressionLists.open(there, false, { trustedMs: 0 });
      cleanups.push(() => lists.close());
      const snapshot = ReferenceData.sample().current();
      expect((await lists.dncFor(snapshot, profileId)).set.lists).toHaveLength(0);
      // Written straight to the database: no announcement at all.
      await addSuppressedNumbers(here.db, profileId, [2_024_440_302]);
      const { set } = await lists.dncFor(snapshot, profileId);
      expect(set.sources(2_024_440_302)).toEqual(['internal']);
    });
  });
}
