import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { registerUploadRoute } from './upload-route.js';

const DAY_MS = 86_400_000;

/**
 * The app's blob store, as configured: an S3 bucket, or a directory of the data directory whose
 * upload URLs this app serves. Nothing is created on disk until a file or URL is asked for.
 */
export async function setUpBlobStore(
  app: FastifyInstance,
  config: ServerConfig,
  publicUrl: () => string,
): Promise<BlobStore> {
  const target = config.blobStore;
  if (target.kind === 's3') {
    // Loaded only for S3: the AWS SDK costs the process about 40 MB.
    const { S3BlobStore } = await import('./s3-blob-store.js');
    const store = new S3BlobStore(target);
    app.addHook('onClose', async () => store.close());
    return store;
  }
  const store = new LocalBlobStore({ dir: target.dir, publicUrl });
  await registerUploadRoute(app, store);
  // Uploads outlive their URL (expiry is checked when they start), but none lasts a day.
  await store.sweepScratch(DAY_MS);
  return store;
}
