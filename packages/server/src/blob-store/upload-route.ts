import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { isValidKey } from './blob-store.js';
import { alreadyUsed, type LocalBlobStore, UPLOAD_PATH, uploadTooLarge } from './local-blob-store.js';

/**
 * `PUT <upload URL>`, answered like S3 answers a presigned PUT: 200 with the ETag, 403 for an
 * altered or expired URL. It stays out of the contract's route table: clients PUT to whatever
 * `upload_url` they are given (this route, or an S3 bucket in production), the signature in the
 * URL is its only credential, and its body is a file, not JSON.
 */
export async function registerUploadRoute(app: FastifyInstance, store: LocalBlobStore): Promise<void> {
  await app.register(async (scope) => {
    // In this scope only: the body reaches the handler unread, as a stream of any size, and the
    // handler judges its type; the rest of the API keeps its JSON parser.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // A refusal sent before the whole body arrived ends the connection: the rest of a 2 GB body is
    // not worth reading, and the connection cannot carry another request without reading it.
    scope.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete) reply.header('connection', 'close');
    });

    scope.put(`${UPLOAD_PATH}*`, async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isValidKey(key)) throw new ApiError('not_found', 'No such upload URL.');
      const grant = await store.grantFor(key, request.query as Record<string, unknown>);
      if (grant.part) {
        // One part of an upload in parts: any type, as S3 takes a part; sent again, it replaces the last.
        if (Number(request.headers['content-length']) > grant.maxBytes) throw uploadTooLarge(grant.maxBytes);
        const { md5 } = await store.receivePart(grant, request.body as Readable);
        return reply.status(200).header('etag', `"${md5}"`).send();
      }
      if (await store.uploaded(key)) throw alreadyUsed();
      // Exactly the signed type, as S3 requires of a URL presigned with a Content-Type: a client
      // that works here works against S3.
      const type = request.headers['content-type'];
      if (type?.trim().toLowerCase() !== grant.contentType.toLowerCase()) {
        throw new ApiError(
          'unsupported_media_type',
          `This upload URL takes the file with the header 'Content-Type: ${grant.contentType}'; this request sent ${type ? `'${type}'` : 'no Content-Type'}.`,
        );
      }
      if (Number(request.headers['content-length']) > grant.maxBytes) throw uploadTooLarge(grant.maxBytes);
      const { md5 } = await store.receive(grant, request.body as Readable);
      return reply.status(200).header('etag', `"${md5}"`).send();
    });
  });
}
