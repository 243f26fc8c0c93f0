import { BulkJobSchema, FileListSchema, FileViewSchema, JOB_ID_HEADER } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { leadFile, slowly } from '../../test/lead-files.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

describe.each(testDatabases())('the file view of a failed job on $kind', (kind) => {
  let t: TestApp;
  let base: string;
  let accounts = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: await kind.open() },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  async function account(credits: number) {
    accounts++;
    const db = t.database.db;
    const { id } = await ensureProfile(db, {
      sub: `failed-file-${accounts}`,
      email: `failed-file${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, id);
    return { 'x-api-key': api_key };
  }

  /** A link the service answered, on this test's server. */
  const here = (link: string) => `${base}${new URL(link).pathname}${new URL(link).search}`;

  const stream = (headers: Record<string, string>, body: Buffer | ReadableStream<Uint8Array>) =>
    fetch(`${base}/bulk/jobs/stream?file_name=leads.csv&phone_col=phone`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);

  async function jobOf(headers: Record<string, string>, res: Response) {
    const jobRes = await fetch(`${base}/bulk/jobs/${res.headers.get(JOB_ID_HEADER)}`, { headers });
    return BulkJobSchema.parse(await jobRes.json());
  }

  /** Streams `body` and reads the answer to its end, or to where it is cut off: the job as it ended. */
  async function streamed(headers: Record<string, string>, body: Buffer | ReadableStream<Uint8Array>) {
    const res = await stream(headers, body);
    expect(res.status).toBe(200);
    await res.arrayBuffer().catch(() => undefined);
    return jobOf(headers, res);
  }

  async function files(headers: Record<string, string>, query = '') {
    return FileListSchema.parse(await (await fetch(`${base}/files${query}`, { headers })).json()).files;
  }

  async function file(reference: string) {
    return FileViewSchema.parse(await (await fetch(`${base}/files/${reference}`)).json());
  }

  it('says why a streamed job cut off part-way failed, and links the part it kept', async () => {
    const headers = await account(120);
    const job = await streamed(headers, slowly(leadFile(400, 3), 20, 20));
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^Your credits ran out after /);
    expect(job.result_url).not.toBeNull();

    const [listed] = await files(headers);
    const view = await file(job.file_reference);
    for (const shown of [listed, view]) {
      expect(shown).toMatchObject({
        file_reference: job.file_reference,
        status: 'failed',
        file_url: 'Failed',
        error: job.error,
        part_url: job.result_url,
        // The part of the file that arrived is not kept: no link to download it.
        uploaded_file: null,
      });
    }
    expect(job.uploaded_file).toBeNull();
    // The part is the job's kept result, byte for byte, named as a part.
    const part = await fetch(here(view.part_url!));
    expect(part.status).toBe(200);
    expect(part.headers.get('content-disposition')).toContain('filename="leads-scrubbed-part.csv"');
    const kept = Buffer.from(await (await fetch(here(job.result_url!))).arrayBuffer());
    expect(Buffer.from(await part.arrayBuffer()).equals(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(0);

    // The export page's filters shape the part's link as they shape a result's.
    const [filtered] = await files(headers, '?line_type=mobile&dnc=0');
    expect(filtered?.part_url).toBe(`${job.result_url}?line_type=mobile&dnc=0`);
    expect(filtered?.file_url).toBe('Failed');
  });

  it('has no error and no part for a completed job', async () => {
    const headers = await account(1_000);
    const job = await streamed(headers, leadFile(50, 4));
    expect(job.status).toBe('completed');
    const [listed] = await files(headers);
    for (const shown of [listed, await file(job.file_reference)]) {
      expect(shown).toMatchObject({
        status: 'completed',
        file_url: job.result_url,
        error: null,
        part_url: null,
      });
    }
    const result = await fetch(here(job.result_url!));
    expect(result.headers.get('content-disposition')).toContain('filename="leads-scrubbed.csv"');
  });

  it('says why a job that kept nothing failed, with no part', async () => {
    // No credits for the first rows: refused before any row went out, the job failed, nothing kept.
    const headers = await account(0);
    const res = await stream(headers, leadFile(50, 5));
    expect(res.status).toBe(402);
    const listed = FileListSchema.parse(await (await fetch(`${base}/files`, { headers })).json());
    expect(listed.files).toHaveLength(1);
    expect(listed.files[0]).toMatchObject({ status: 'failed', file_url: 'Failed', part_url: null });
    expect(listed.files[0]!.error).toMatch(/^Not enough credits for the first/);
    expect(await file(listed.files[0]!.file_reference)).toMatchObject({
      error: listed.files[0]!.error,
      part_url: null,
    });
  });
});
