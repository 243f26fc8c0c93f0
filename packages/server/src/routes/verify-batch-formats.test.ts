import { BATCH_CSV_HEADERS, VerifyBatchItemSchema } from '@scrub/contract';
import { DncListBuilder, DncSet, sampleExchangeTable } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';

const federal = (() => {
  const builder = new DncListBuilder('federal');
  builder.add(2013456789);
  return builder.build('v1', RELEASED_TODAY);
})();

// Valid, invalid, a repeat, toll free, a DNC-listed number, an extension, a formula.
const MIXED = [
  '201-234-5678',
  'not a number',
  '(201) 234-5678',
  '800-356-9377',
  '201.345.6789',
  '202-333-4444 x12',
  '=1+2',
];

/** Issue 29: `POST /verify` answers CSV or NDJSON when `Accept` asks, the credits in headers. */
describe.each(testDatabases())('POST /verify with Accept on $kind', (database) => {
  let t: TestApp;
  let accounts = 0;

  beforeAll(async () => {
    const referenceData = new ReferenceData({ exchange: sampleExchangeTable(), dnc: new DncSet([federal]) });
    t = await createTestApp({}, { database: await database.open(), referenceData });
  });
  afterAll(() => t?.close());

  async function account(credits: number) {
    accounts++;
    const db = t.database.db;
    const profile = await ensureProfile(db, {
      sub: `formats-${accounts}`,
      email: `f${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, profile.id);
    return { profileId: profile.id, key: api_key };
  }
  const balance = async (profileId: string) => (await ledgerTotals(t.database.db, profileId)).balance;

  const batch = (key: string, accept: string | undefined, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/verify',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        ...(accept ? { accept } : {}),
        ...extra,
      },
      payload: JSON.stringify({ phones: MIXED }),
    });

  it("answers NDJSON: each line the JSON answer's result, the exact credits in headers", async () => {
    const json = await batch((await account(100)).key, undefined);
    const { key, profileId } = await account(100);
    const res = await batch(key, 'application/x-ndjson');

    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = res.body.trimEnd().split('\n');
    const results = lines.map((line) => VerifyBatchItemSchema.parse(JSON.parse(line)));
    const strip = ({ callable_now, ...rest }: Record<string, unknown>) => rest;
    expect(results.map(strip)).toEqual(json.json().results.map(strip));
    expect(res.headers['scrub-credits-deducted']).toBe('4');
    expect(res.headers['scrub-credits-remaining']).toBe('96');
    expect(await balance(profileId)).toBe(96);
  });

  it('answers CSV: a header line, one line per number in order, the exact credits in headers', async () => {
    const { key, profileId } = await account(10);
    const res = await batch(key, 'text/csv, application/json;q=0.5');

    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = res.body.trimEnd().split('\r\n');
    expect(header).toBe(BATCH_CSV_HEADERS.join(','));
    expect(rows).toHaveLength(MIXED.length);
    const column = (row: string, name: (typeof BATCH_CSV_HEADERS)[number]) =>
      row.split(',')[BATCH_CSV_HEADERS.indexOf(name)];
    expect(rows.map((row) => column(row, 'credits_deducted'))).toEqual(['1', '0', '0', '1', '1', '1', '0']);
    expect(column(rows[1]!, 'line_type')).toBe('invalid');
    expect(column(rows[1]!, 'dnc')).toBe('');
    expect(column(rows[2]!, 'cached')).toBe('true');
    expect(column(rows[4]!, 'dnc')).toBe('1');
    expect(column(rows[4]!, 'dnc_sources')).toBe('federal');
    expect(column(rows[5]!, 'extension')).toBe('12');
    // A cell a spreadsheet would run as a formula is written as text.
    expect(column(rows[6]!, 'input')).not.toBe('=1+2');
    expect(res.headers['scrub-credits-deducted']).toBe('4');
    expect(res.headers['scrub-credits-remaining']).toBe('6');
    expect(await balance(profileId)).toBe(6);
  });

  it('stays JSON by default and for Accept: application/json, with no credit headers', async () => {
    const { key } = await account(10);
    for (const accept of [undefined, 'application/json', '*/*', 'application/xml']) {
      const res = await batch(key, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['scrub-credits-deducted']).toBeUndefined();
      expect(res.json().results).toHaveLength(MIXED.length);
    }
  });

  it('replays an Idempotency-Key in the format asked, charging once', async () => {
    const { key, profileId } = await account(10);
    const first = await batch(key, 'text/csv', { 'idempotency-key': 'formats-1' });
    const again = await batch(key, 'text/csv', { 'idempotency-key': 'formats-1' });
    const asNdjson = await batch(key, 'application/x-ndjson', { 'idempotency-key': 'formats-1' });

    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers['scrub-credits-deducted']).toBe('4');
    expect(asNdjson.body.trimEnd().split('\n')).toHaveLength(MIXED.length);
    expect(asNdjson.headers['scrub-credits-remaining']).toBe('6');
    expect(await balance(profileId)).toBe(6);
  });
});
