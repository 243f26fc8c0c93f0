import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp } from '../../test/test-app.js';
import { LocalBlobStore } from './local-blob-store.js';

const csv = { 'content-type': 'text/csv' };

describe('the blob store in the app', () => {
  it('serves the upload URLs of the local store in the data directory', async () => {
    const dir = tempDir();
    const t = await createTestApp({ blobStore: { kind: 'local', dir } });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      // Another handle on the same directory: it shares the install's signing secret.
      const store = new LocalBlobStore({ dir, publicUrl: () => `http://127.0.0.1:${port}` });
      const { url } = await store.createUploadUrl('uploads/a.csv', {
        expiresInSeconds: 60,
        maxBytes: 100,
        contentType: 'text/csv',
      });
      expect((await fetch(url, { method: 'PUT', headers: csv, body: 'phone\n' })).status).toBe(200);
      expect(await store.stat('uploads/a.csv')).toEqual({ size: 6, contentType: 'text/csv' });
    } finally {
      await t.close();
    }
  });

  it('serves no upload route when files live in S3', async () => {
    const t = await createTestApp({
      blobStore: { kind: 's3', bucket: 'scrub', region: 'us-east-1', endpoint: null, forcePathStyle: false },
    });
    try {
      const res = await t.app.inject({ method: 'PUT', url: '/uploads/a.csv', headers: csv, payload: 'x' });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
