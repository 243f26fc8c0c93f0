import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver, { type S3rverContext } from '@20minutes/s3rver';

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
  server.middleware.unshift(multipartShim(server, bucket));
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

const noSuchUpload = (ctx: S3rverContext) => {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
};

/**
 * What s3rver leaves out of multipart uploads and the service uses, answered as S3 answers it:
 * ListParts, AbortMultipartUpload, and NoSuchUpload for a part sent to an upload no longer there
 * (s3rver would start it again). It reads s3rver's own parts folder; it checks no signature.
 */
function multipartShim(server: S3rver, bucket: string) {
  return async (ctx: S3rverContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    if (
      typeof uploadId !== 'string' ||
      !/^[0-9A-Za-z_-]+$/.test(uploadId) ||
      !ctx.path.startsWith(`/${bucket}/`)
    ) {
      return next();
    }
    const dir = join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    const open = await stat(dir).then(
      () => true,
      () => false,
    );
    if (!open && ['GET', 'DELETE', 'PUT'].includes(ctx.method)) return noSuchUpload(ctx);
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'GET') return next();
    const numbers = (await readdir(dir)).filter((name) => /^[0-9]+$/.test(name)).map(Number);
    const parts: string[] = [];
    for (const number of numbers.sort((a, b) => a - b)) {
      const size = (await stat(join(dir, String(number)))).size;
      const md5 = await readFile(join(dir, `${number}.md5`), 'utf8').catch(() => '');
      parts.push(`<Part><PartNumber>${number}</PartNumber><ETag>"${md5}"</ETag><Size>${size}</Size></Part>`);
    }
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${bucket}</Bucket><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}
