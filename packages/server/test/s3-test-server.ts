import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** s3rver's fixed credentials; it checks signatures with them, presigned URLs included. */
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server on loopback, in this process (s3rver: plain Node, no Java, no
 * network), with one empty bucket in a temporary directory.
 */
export async function startS3TestServer(bucket = 'scrub-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'scrub-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
