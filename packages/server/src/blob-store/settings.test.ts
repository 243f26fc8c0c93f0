import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';

describe('blob store settings', () => {
  it('keep files in the data directory unless a bucket is set', () => {
    const config = loadConfig({ SCRUB_DATA_DIR: '/var/lib/scrub' });
    expect(config.blobStore).toEqual({ kind: 'local', dir: join('/var/lib/scrub', 'files') });
    expect(config.uploadUrlTtlSeconds).toBe(3600);
    expect(config.maxUploadBytes).toBe(1024 * 1024 * 1024);
  });

  it('read an S3 bucket, and an S3-compatible endpoint with path-style addressing', () => {
    expect(loadConfig({ SCRUB_S3_BUCKET: 'scrub-files', SCRUB_S3_REGION: 'us-east-1' }).blobStore).toEqual({
      kind: 's3',
      bucket: 'scrub-files',
      region: 'us-east-1',
      endpoint: null,
      forcePathStyle: false,
    });
    const compatible = loadConfig({
      SCRUB_S3_BUCKET: 'scrub',
      SCRUB_S3_REGION: 'auto',
      SCRUB_S3_ENDPOINT: 'http://127.0.0.1:9000',
      SCRUB_S3_FORCE_PATH_STYLE: '1',
      SCRUB_UPLOAD_URL_TTL_SECONDS: '900',
    });
    expect(compatible.blobStore).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
    expect(compatible.uploadUrlTtlSeconds).toBe(900);
  });

  it('refuse half an S3 setup and lifetimes S3 cannot sign', () => {
    expect(() => loadConfig({ SCRUB_S3_BUCKET: 'scrub' })).toThrow(
      /SCRUB_S3_BUCKET and SCRUB_S3_REGION go together/,
    );
    expect(() => loadConfig({ SCRUB_S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /SCRUB_S3_ENDPOINT only with/,
    );
    expect(() => loadConfig({ SCRUB_S3_ENDPOINT: 'minio:9000' })).toThrow(/SCRUB_S3_ENDPOINT/);
    expect(() => loadConfig({ SCRUB_S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/SCRUB_S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ SCRUB_UPLOAD_URL_TTL_SECONDS: String(8 * 86_400) })).toThrow(
      /SCRUB_UPLOAD_URL_TTL_SECONDS/,
    );
  });
});
