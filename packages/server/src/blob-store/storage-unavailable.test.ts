import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorEnvelopeSchema, HealthSchema } from '@scrub/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { installErrorHandler } from '../http/error-handler.js';
import { LocalBlobStore } from './local-blob-store.js';

// /dev/full answers every write with ENOSPC: a disk that is full, for real, on any Linux machine.
const FULL = '/dev/full';

describe('a full or read-only file store', () => {
  it('is answered 503 storage_unavailable with Retry-After, in the error envelope', async () => {
    const app = Fastify();
    installErrorHandler(app);
    app.put('/file', async () => {
      await writeFile(FULL, 'a CSV file');
      return { ok: true };
    });
    const res = await app.inject({ method: 'PUT', url: '/file' });
    await app.close();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    const { error } = ErrorEnvelopeSchema.parse(res.json());
    expect(error.code).toBe('storage_unavailable');
    expect(error.message).toMatch(/full or read-only.*nothing was charged/);
  });

  it('fails the local store probe, which passes on a disk that takes writes', async () => {
    const broken = new LocalBlobStore({ dir: join(FULL, 'files'), publicUrl: () => 'http://localhost' });
    const fine = new LocalBlobStore({ dir: tempDir(), publicUrl: () => 'http://localhost' });
    expect(await broken.probe()).toBe(false);
    expect(await fine.probe()).toBe(true);
  });

  it("has partial files of processes that are gone removed at startup, and keeps this process's", async () => {
    const dir = tempDir();
    const store = new LocalBlobStore({ dir, publicUrl: () => 'http://localhost' });
    const writing = store.createWriteStream('results/live.csv', 'text/csv');
    // Once this write is done, the scratch file exists: an upload under way in this process.
    await new Promise((resolve) => writing.write('Phone\n', resolve));
    mkdirSync(join(dir, '.tmp'), { recursive: true });
    // A process that died mid-upload (pid 2^22 + 1 is above Linux's pid limit), a file of an older
    // naming, and one a day and more old.
    writeFileSync(join(dir, '.tmp', '4194305.deadbeef-6a1c9c1e-2b1f-4a7e-9a55-0c2b8a3f7e10'), 'Phone\n20155');
    writeFileSync(join(dir, '.tmp', 'old'), 'x');
    utimesSync(join(dir, '.tmp', 'old'), new Date(0), new Date(0));
    await store.sweepScratch(86_400_000);
    expect(readdirSync(join(dir, '.tmp'))).toHaveLength(1);
    await new Promise<void>((resolve, reject) =>
      writing.end('2015550123\n', () => resolve()).on('error', reject),
    );
    expect(await store.stat('results/live.csv')).not.toBeNull();
  });
});

describe('/health on a full disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ blobStore: { kind: 'local', dir: join(FULL, 'files') } });
  });
  afterAll(() => t?.close());

  it('says degraded, and which part: the file store', async () => {
    const health = HealthSchema.parse((await t.app.inject({ method: 'GET', url: '/health' })).json());
    expect(health).toMatchObject({
      status: 'degraded',
      storage: { kind: 'local', ok: false },
      database: { ok: true },
    });
  });
});
