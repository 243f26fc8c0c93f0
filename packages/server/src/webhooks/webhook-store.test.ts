import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { ensureProfile } from '../account/profiles.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { claimDueDeliveries, createEndpoint, recordAttempt, recordEvent } from './webhook-store.js';

for (const testDatabase of testDatabases()) {
  describe(`the webhook outbox on ${testDatabase.kind}`, () => {
    let here: DatabaseHandle;
    // A second connection, as a second process has (PGlite has one process: the same handle).
    let there: DatabaseHandle;
    let profileId: string;
    beforeAll(async () => {
      const first = await testDatabase.open();
      await migrateToLatest(first.db);
      here = first;
      there = first.url ? await openDatabase({ kind: 'postgres', url: first.url }) : first;
      profileId = (
        await ensureProfile(here.db, { sub: 'outbox', email: 'o@example.com', name: '', role: 'User' })
      ).id;
      await createEndpoint(here.db, {
        profileId,
        url: 'http://127.0.0.1:9/a',
        events: ['job.completed'],
        description: '',
      });
      await createEndpoint(here.db, {
        profileId,
        url: 'http://127.0.0.1:9/b',
        events: ['job.failed'],
        description: '',
      });
    }, 60_000);
    afterAll(async () => {
      if (there !== here) await there?.close();
      await here?.close();
    });

    const event = (type = 'job.completed') =>
      recordEvent(here.db, { profileId, type, data: {}, retryForSeconds: 60 });

    it('writes an event only with the transaction that makes it true, to the endpoints subscribed', async () => {
      await expect(
        here.db.transaction().execute(async (trx) => {
          await recordEvent(trx, { profileId, type: 'job.completed', data: {}, retryForSeconds: 60 });
          throw new Error('the job did not end after all');
        }),
      ).rejects.toThrow('did not end');
      expect(await here.db.selectFrom('webhook_events').selectAll().execute()).toEqual([]);

      const recorded = await event('job.failed');
      expect(recorded?.deliveryIds).toHaveLength(1);
      const taken = await claimDueDeliveries(here.db, { limit: 10, leaseSeconds: 60 });
      expect(taken.map((d) => d.url)).toEqual(['http://127.0.0.1:9/b']);
      // Leased: not taken again while its attempt is under way.
      expect(await claimDueDeliveries(here.db, { limit: 10, leaseSeconds: 60 })).toEqual([]);
      await recordAttempt(
        here.db,
        taken[0]!,
        { attemptedAt: new Date(), statusCode: 200, responseMs: 5, error: null, delivered: true },
        null,
      );
    });

    it('hands each due delivery to one taker only, with two takers at once', async () => {
      for (let i = 0; i < 6; i++) await event();
      const [a, b] = await Promise.all([
        claimDueDeliveries(here.db, { limit: 4, leaseSeconds: 60 }),
        claimDueDeliveries(there.db, { limit: 4, leaseSeconds: 60 }),
      ]);
      const ids = [...a, ...b].map((d) => d.id);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
    });

    it('fails a delivery whose last retry has passed, and logs every attempt', async () => {
      const recorded = await event();
      const [delivery] = await claimDueDeliveries(here.db, {
        limit: 1,
        leaseSeconds: 60,
        deliveryId: recorded!.deliveryIds[0]!,
      });
      const outcome = {
        attemptedAt: new Date(),
        statusCode: 503,
        responseMs: 3,
        error: 'the endpoint answered 503',
        delivered: false,
      };
      await recordAttempt(here.db, delivery!, outcome, null);
      const row = await here.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', delivery!.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row.ended_at).not.toBeNull();
      const attempts = await here.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', '=', delivery!.id)
        .execute();
      expect(attempts).toMatchObject([{ attempt: 1, status_code: 503, error: 'the endpoint answered 503' }]);
    });
  });
}
