import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VerifyBatchResultSchema, VerifyResultSchema } from '@scrub/contract';
import { ClassCode, DisconnectList, DncSet, dayOf, ExchangeTableBuilder } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';

// Reassigned numbers, as a customer asks: a consent date with the check; the answer, its source,
// what it cost, and whether the number may be called.

/** 201-234-0100 was disconnected on 2024-03-01; the file covers 2024-01-01 to 2024-06-30. */
const disconnects = DisconnectList.build([[2012340100, dayOf('2024-03-01')]], {
  version: 'rnd-2024-06',
  asOf: '2024-06-30',
  from: '2024-01-01',
});
const FILE_SOURCE = { provider: 'imported_disconnects', as_of: '2024-06-30' };

function exchangeData() {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, ClassCode.MOBILE);
  return builder.build('test-exchanges');
}

let accounts = 0;
async function account(t: TestApp, credits: number) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `reassigned-${accounts}`,
    email: `reassigned${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { 'x-api-key': api_key };
}

async function verify(t: TestApp, headers: Record<string, string>, query: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: '/verify', query, headers });
  return { status: res.statusCode, body: res.json() };
}

/** A stand-in query service: answers by the number's last digit, and never for ...0199 (too slow). */
async function queryService(): Promise<{ url: string; asked: unknown[]; close(): Promise<void> }> {
  const asked: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(text) as { phone_number: string; date: string };
      asked.push({ auth: req.headers.authorization, ...body });
      if (body.phone_number.endsWith('0199')) return; // never answers: the provider's timeout ends the wait
      const answer = { '1': 'yes', '2': 'no', '3': 'no_data' }[body.phone_number.at(-1)!] ?? 'maybe';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ answer, as_of: '2026-11-01' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rnd`,
    asked,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(testDatabases())('reassigned numbers on $kind', (database) => {
  describe('answered from the imported disconnections', () => {
    let t: TestApp;
    beforeAll(async () => {
      const referenceData = new ReferenceData({ exchange: exchangeData(), dnc: new DncSet(), disconnects });
      t = await createTestApp(
        { reassigned: { credits: 2, http: null } },
        { database: await database.open(), referenceData },
      );
    });
    afterAll(() => t?.close());

    it('answers true for a number disconnected since consent, and never calls it callable', async () => {
      const headers = await account(t, 20);
      const { status, body } = await verify(t, headers, { p: '201-234-0100', consent_date: '2024-02-01' });
      expect(status).toBe(200);
      expect(VerifyResultSchema.parse(body)).toMatchObject({
        reassigned: true,
        reassigned_source: FILE_SOURCE,
        callable_now: false,
        callable_reason: expect.stringMatching(/^reassigned/),
        // The check (1) and the reassigned answer at the operator's price (2).
        credits_deducted: 3,
        credits_remaining: 17,
      });
      // The same question again comes from the cache, free.
      expect(
        (await verify(t, headers, { p: '201-234-0100', consent_date: '2024-02-01' })).body,
      ).toMatchObject({
        reassigned: true,
        cached: true,
        credits_deducted: 0,
        credits_remaining: 17,
      });
      // Another consent date is another question, asked and charged anew.
      expect(
        (await verify(t, headers, { p: '201-234-0100', consent_date: '2024-04-01' })).body,
      ).toMatchObject({
        reassigned: false,
        cached: false,
        credits_deducted: 3,
      });
    });

    it('answers false inside the file, null outside it, and nothing (at the old price) when not asked', async () => {
      const headers = await account(t, 20);
      const answer = async (p: string, consent_date: string) =>
        (await verify(t, headers, { p, consent_date })).body as Record<string, unknown>;
      expect(await answer('201-234-0199', '2024-01-01')).toMatchObject({
        reassigned: false,
        reassigned_source: FILE_SOURCE,
      });
      // A file cannot say "no" about days after its as-of date, nor before it begins.
      expect(await answer('201-234-0198', '2024-07-01')).toMatchObject({
        reassigned: null,
        reassigned_source: FILE_SOURCE,
      });
      expect(await answer('201-234-0197', '2023-12-31')).toMatchObject({ reassigned: null });
      const plain = await verify(t, headers, { p: '201-234-0196' });
      expect(plain.body).toMatchObject({ credits_deducted: 1 });
      expect(plain.body).not.toHaveProperty('reassigned');
    });

    it('refuses a consent date that is not a date, or in the future, with a 400 naming it', async () => {
      const headers = await account(t, 5);
      for (const consent_date of ['2024-02-30', '02/01/2024', '2999-01-01']) {
        const { status, body } = await verify(t, headers, { p: '201-234-0100', consent_date });
        expect(status).toBe(400);
        expect(JSON.stringify(body)).toContain('consent_date');
      }
    });

    it('answers a batch with one consent date, charging each new number the check and the answer', async () => {
      const headers = await account(t, 20);
      const res = await t.app.inject({
        method: 'POST',
        url: '/verify',
        headers,
        payload: {
          phones: ['201-234-0100', '201-234-0101', '201-234-0100', '12'],
          consent_date: '2024-02-01',
        },
      });
      expect(res.statusCode).toBe(200);
      const body = VerifyBatchResultSchema.parse(res.json());
      expect(body.results.map((result) => result.reassigned)).toEqual([true, false, true, null]);
      expect(body.results.map((result) => result.callable_now)).toEqual([
        false,
        expect.anything(),
        false,
        null,
      ]);
      expect(body).toMatchObject({ credits_deducted: 6, credits_remaining: 14 });
    });
  });

  describe('asked of a query service', () => {
    let t: TestApp;
    let service: Awaited<ReturnType<typeof queryService>>;
    beforeAll(async () => {
      service = await queryService();
      const referenceData = new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() });
      t = await createTestApp(
        { reassigned: { credits: 1, http: { url: service.url, key: 'rnd-key', timeoutMs: 300 } } },
        { database: await database.open(), referenceData },
      );
    });
    afterAll(async () => {
      await t?.close();
      await service?.close();
    });

    it('maps its yes, no and no data to true, false and null, with its as-of date', async () => {
      const headers = await account(t, 20);
      const answer = async (p: string) =>
        (await verify(t, headers, { p, consent_date: '2024-02-01' })).body as Record<string, unknown>;
      const source = { provider: 'query_service', as_of: '2026-11-01' };
      expect(await answer('201-234-0101')).toMatchObject({ reassigned: true, reassigned_source: source });
      expect(await answer('201-234-0102')).toMatchObject({ reassigned: false, reassigned_source: source });
      expect(await answer('201-234-0103')).toMatchObject({ reassigned: null, reassigned_source: source });
      expect(service.asked[0]).toEqual({
        auth: 'Bearer rnd-key',
        phone_number: '+12012340101',
        date: '2024-02-01',
      });
    });

    it('fails the check with a 503 and charges nothing when the service is slow or answers nonsense', async () => {
      const headers = await account(t, 5);
      const slow = await verify(t, headers, { p: '201-234-0199', consent_date: '2024-02-01' });
      expect(slow.status).toBe(503);
      expect(slow.body.error.message).toMatch(/no answer within 300 ms.*Nothing was charged/);
      expect((await verify(t, headers, { p: '201-234-0104', consent_date: '2024-02-01' })).status).toBe(503);
      expect((await verify(t, headers, { p: '201-234-0105' })).body).toMatchObject({ credits_remaining: 4 });
    });
  });
});
