import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  BulkJobSchema,
  FileProofSchema,
  ProofKeySetSchema,
  VerifyProofStatementSchema,
  VerifyResultSchema,
} from '@scrub/contract';
import { ClassCode, DncListBuilder, DncSet, ExchangeTableBuilder } from '@scrub/engine';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { DEFAULT_AGE_RULE } from '../reference-data/dnc-age.js';
import { ReferenceData } from '../reference-data/reference-data.js';

const pem = () =>
  generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** 201-234 is mobile; the federal registry, released 2026-11-20, holds 201-234-0002. */
function referenceData() {
  const exchange = new ExchangeTableBuilder();
  exchange.coverArea(201);
  exchange.setExchange(201234, ClassCode.MOBILE);
  const federal = new DncListBuilder('federal');
  federal.add(2012340002);
  // This suite is about what a proof signs, not a list's age (dnc-age.test.ts moves the clock):
  // the registry of 2026-11-20 stays fresh however long after it the suite runs.
  return new ReferenceData(
    {
      exchange: exchange.build('test-exchanges'),
      dnc: new DncSet([federal.build('2026-11-20', '2026-11-20')]),
    },
    { ...DEFAULT_AGE_RULE, maxAgeDays: 100 * 365 },
  );
}

const KEY_A = pem();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    {
      dataDir: tempDir(),
      blobStore: { kind: 'local', dir: `${tempDir()}/files` },
      proofKeys: { signingKey: KEY_A, retiredKeys: null },
    },
    { referenceData: referenceData() },
  );
});
afterAll(() => t?.close());

let accounts = 0;
async function account(credits: number) {
  accounts++;
  const { id } = await ensureProfile(t.database.db, {
    sub: `proof-${accounts}`,
    email: `proof${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  if (credits > 0) await applyLedgerEntry(t.database.db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(t.database.db, id);
  return { profileId: id, headers: { 'x-api-key': api_key } };
}

const LEADS = 'Name,Phone\nAnn,201-234-0001\nBob,201-234-0002\nCid,201-234-0002\nDee,555\n';

async function completedJob(headers: Record<string, string>, csv = LEADS) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/bulk/jobs',
    headers,
    payload: { file_name: 'leads.csv', phone_col: 'Phone', csv_content: csv },
  });
  expect(created.statusCode).toBe(201);
  const jobId = created.json().job_id as string;
  expect(
    (await t.app.inject({ method: 'POST', url: `/bulk/jobs/${jobId}/submit`, headers })).statusCode,
  ).toBe(200);
  for (let i = 0; i < 400; i++) {
    const job = BulkJobSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${jobId}`, headers })).json(),
    );
    if (job.status === 'completed') return job;
    expect(job.status).not.toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the job never completed');
}

async function keys(app: TestApp): Promise<JSONWebKeySet> {
  const res = await app.app.inject({ method: 'GET', url: '/.well-known/scrub-proof-keys.json' });
  expect(res.statusCode).toBe(200);
  return ProofKeySetSchema.parse(res.json()) as JSONWebKeySet;
}

/** The statement, once its signature checks out against the service's published keys. */
async function verified(jws: string, jwks: JSONWebKeySet) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks));
  expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'scrub-proof+jws' });
  return JSON.parse(new TextDecoder().decode(payload));
}

describe('GET /files/{ref}/proof', () => {
  it('signs what the job checked: both files hashes, counts, datasets, the registry date and the 31 days', async () => {
    const { profileId, headers } = await account(10);
    const job = await completedJob(headers);
    const res = await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/proof` });
    expect(res.statusCode).toBe(200);
    const proof = FileProofSchema.parse(res.json());
    const statement = await verified(proof.jws, await keys(t));
    expect(statement).toEqual(proof.statement);

    const result = (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/result` }))
      .rawPayload;
    expect(statement).toMatchObject({
      type: 'scrub.file',
      job_id: job.job_id,
      file_name: 'leads.csv',
      input: { sha256: sha256(LEADS), rows: 4 },
      result: { sha256: sha256(result) },
      numbers_checked: 2,
      duplicates: 1,
      dnc_status: { clean: 1, dnc: 2, unchecked: 0 },
      account: { id: profileId, email: null },
      ftc_registry: { version: '2026-11-20', release_date: '2026-11-20' },
      valid_until: '2026-12-21T00:00:00.000Z',
      checked_at: job.completed_at,
    });
    expect(statement.datasets).toMatchObject({ exchange: 'test-exchanges', 'dnc:federal': '2026-11-20' });
    // Public by reference: whoever holds the link does not learn the account's e-mail.
    expect(res.body).not.toContain(`proof${accounts}@example.com`);
    const me = await t.app.inject({ method: 'GET', url: '/user', headers });
    expect(me.json().userId).toBe(profileId);
    expect(proof.keys_url).toMatch(/\/\.well-known\/scrub-proof-keys\.json$/);

    // One changed byte in the result no longer matches; a changed statement no longer verifies.
    const tampered = Buffer.from(result);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expect(sha256(tampered)).not.toBe(statement.result.sha256);
    const [header, payload, signature] = proof.jws.split('.');
    const forged = Buffer.from(JSON.stringify({ ...statement, numbers_checked: 3 })).toString('base64url');
    await expect(verified(`${header}.${forged}.${signature}`, await keys(t))).rejects.toThrow(/signature/i);
    expect(payload).not.toBe(forged);
  });

  it('answers 409 for a job not completed, and 404 for an unknown reference', async () => {
    const { headers } = await account(10);
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'later.csv', phone_col: 'Phone' },
    });
    const pending = await t.app.inject({
      method: 'GET',
      url: `/files/${created.json().file_reference}/proof`,
    });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.message).toMatch(/proof is ready once it has completed/);
    const unknown = await t.app.inject({ method: 'GET', url: '/files/nosuchreference/proof' });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 409 for a job completed before proofs were recorded', async () => {
    const { headers } = await account(10);
    const job = await completedJob(headers);
    await t.database.db
      .updateTable('bulk_jobs')
      .set({ upload_sha256: null, result_sha256: null, dataset_versions: null })
      .where('id', '=', job.job_id)
      .execute();
    const res = await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/proof` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/before proofs of scrub were recorded/);
  });

  it('keeps old proofs verifiable after the key is rotated', async () => {
    const { headers } = await account(10);
    const job = await completedJob(headers);
    const old = FileProofSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/proof` })).json(),
    );
    const rotated = await createTestApp({
      proofKeys: { signingKey: pem(), retiredKeys: JSON.stringify(await keys(t)) },
    });
    try {
      const published = await keys(rotated);
      expect(published.keys).toHaveLength(2);
      expect(published.keys[1]?.kid).toBe(old.statement.kid);
      expect(published.keys[0]?.kid).not.toBe(old.statement.kid);
      expect(await verified(old.jws, published)).toEqual(old.statement);
    } finally {
      await rotated.close();
    }
  });
});

describe('GET /verify?proof=1', () => {
  it('signs the answer, for the one credit the answer costs', async () => {
    const { profileId, headers } = await account(5);
    const res = await t.app.inject({
      method: 'GET',
      url: '/verify',
      query: { p: '2012340002', proof: '1' },
      headers,
    });
    expect(res.statusCode).toBe(200);
    const answer = VerifyResultSchema.parse(res.json());
    expect(answer.credits_deducted).toBe(1);
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(4);
    const statement = VerifyProofStatementSchema.parse(await verified(answer.proof!, await keys(t)));
    expect(statement).toMatchObject({
      type: 'scrub.verify',
      phone_number: '+12012340002',
      line_type: 'mobile',
      dnc: 1,
      dnc_lists_checked: ['federal'],
      ftc_registry: { release_date: '2026-11-20' },
      valid_until: '2026-12-21T00:00:00.000Z',
      account: { id: profileId },
    });
    const plain = await t.app.inject({ method: 'GET', url: '/verify', query: { p: '2012340001' }, headers });
    expect(plain.json().proof).toBeUndefined();
  });
});
