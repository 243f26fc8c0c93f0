import { CreatedDncImportSchema, DncChangeSchema, MAX_INLINE_CSV_CHARS } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { LocalBlobStore } from '../blob-store/local-blob-store.js';
import { removeStaleSuppressionImports } from '../suppression/suppression-imports.js';

/** A suppression CSV larger than the inline limit: a header and `count` numbers in area 201. */
function bigCsv(count: number): string {
  const lines = ['Name,Phone'];
  for (let i = 0; i < count; i++) lines.push(`Lead number ${i},+1 (201) 55${String(i).padStart(5, '0')}`);
  return `${lines.join('\n')}\n`;
}

describe.each(testDatabases())('suppression imports by upload on $kind', (database) => {
  let t: TestApp;
  let accounts = 0;
  const files = `${tempDir()}/files`;
  /** The store the app keeps its files in, as the worker's sweep sees it. */
  const blobStore = new LocalBlobStore({ dir: files, publicUrl: () => 'http://127.0.0.1' });

  beforeAll(async () => {
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: files } },
      { database: await database.open() },
    );
  });
  afterAll(() => t?.close());

  async function account() {
    accounts++;
    const { id } = await ensureProfile(t.database.db, {
      sub: `suppress-upload-${accounts}`,
      email: `suppress-upload${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    const { api_key } = await rotateApiKey(t.database.db, id);
    return { 'x-api-key': api_key };
  }

  const call = (headers: Record<string, string>, url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  /** PUTs the file to the upload URL as a client would (the URL's signature is the credential). */
  const put = (uploadUrl: string, csv: string) => {
    const url = new URL(uploadUrl);
    return t.app.inject({
      method: 'PUT',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
  };

  it('imports a list larger than the inline limit: an upload URL, the PUT, then the import', async () => {
    const headers = await account();
    const csv = bigCsv(90_000);
    expect(csv.length).toBeGreaterThan(MAX_INLINE_CSV_CHARS);
    const inline = await call(headers, '/dnc/import', { csv_content: csv, phone_col: 'Phone' });
    // Sent inline, a body this large is refused before it is read.
    expect(inline.statusCode).toBe(413);

    const started = await call(headers, '/dnc/imports', { phone_col: 'Phone', mode: 'replace' });
    expect(started.statusCode).toBe(201);
    const created = CreatedDncImportSchema.parse(started.json());
    expect(created.max_bytes).toBe(t.config.maxUploadBytes);

    const early = await call(headers, `/dnc/imports/${created.import_id}/submit`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/PUT it to the upload_url first/);

    expect((await put(created.upload_url, csv)).statusCode).toBeLessThan(300);
    const stranger = await account();
    expect((await call(stranger, `/dnc/imports/${created.import_id}/submit`)).statusCode).toBe(404);

    const submitted = await call(headers, `/dnc/imports/${created.import_id}/submit`);
    expect(submitted.statusCode).toBe(200);
    const change = DncChangeSchema.parse(submitted.json());
    expect(change).toMatchObject({ changed: 90_000, rejected_count: 0, summary: { count: 90_000 } });
    const summary = await t.app.inject({ method: 'GET', url: '/dnc', headers });
    expect(summary.json().count).toBe(90_000);

    // Imported once: the import and its file are gone.
    expect((await call(headers, `/dnc/imports/${created.import_id}/submit`)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('suppression_imports').selectAll().execute()).toEqual([]);
  }, 120_000);

  it('refuses bad settings by field, and sweeps imports never submitted a day after their URL expired', async () => {
    const headers = await account();
    const bad = await call(headers, '/dnc/imports', { mode: 'append' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.issues[0].path).toBe('mode');

    const started = CreatedDncImportSchema.parse((await call(headers, '/dnc/imports', {})).json());
    await put(started.upload_url, 'Phone\n2015550100\n');
    const expires = Date.parse(started.upload_expires_at);
    const db = t.database.db;
    expect(await removeStaleSuppressionImports(db, blobStore, new Date(expires + 3_600_000))).toBe(0);
    expect(await removeStaleSuppressionImports(db, blobStore, new Date(expires + 86_400_000 + 1000))).toBe(1);
    expect((await call(headers, `/dnc/imports/${started.import_id}/submit`)).statusCode).toBe(404);
  });
});
