import { type ErrorCode, type ErrorEnvelope, errorStatus, type FieldIssue, messages } from '@scrub/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from '../errors/api-error.js';
import { isStorageUnavailable, storageUnavailable } from '../errors/storage-errors.js';
import { discardBody } from './discard-body.js';

const fastifyCodes: Record<
  string,
  { code: ErrorCode; message?: (e: FastifyError, bodyLimit: number | undefined) => string }
> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'invalid_json',
    message: (e) => `The request body is not valid JSON: ${e.message}`,
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    message: () =>
      "The request body is empty, but its content type says JSON. Send a JSON body or drop the 'Content-Type: application/json' header.",
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: (e) =>
      `${e.message}. This API accepts application/json bodies (text/csv on POST /verify and on upload URLs).`,
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message: (_e, limit) =>
      `The request body is larger than this API accepts${limit ? `: at most ${limit.toLocaleString('en-US')} bytes` : ''}.`,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'bad_request',
    message: () => 'The Content-Length header does not match the body.',
  },
};

const contextLocation: Record<string, FieldIssue['location']> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

function describeIssues(issues: FieldIssue[]): string {
  return issues
    .map((i) => (i.path ? `${i.location} field "${i.path}": ${i.message}` : `${i.location}: ${i.message}`))
    .join('; ');
}

function statusCodeName(status: number): ErrorCode {
  const match = (Object.entries(errorStatus) as [ErrorCode, number][]).find(([, s]) => s === status);
  return match ? match[0] : 'bad_request';
}

export function envelope(
  code: ErrorCode,
  message: string,
  requestId: string,
  extra: Partial<ErrorEnvelope> & { issues?: FieldIssue[] } = {},
): ErrorEnvelope {
  const { issues, ...rest } = extra;
  return { error: { code, message, request_id: requestId, ...(issues ? { issues } : {}) }, message, ...rest };
}

/** The body an expected failure is answered with (also stored for `Idempotency-Key` replays). */
export function errorEnvelopeOf(error: ApiError, requestId: string): ErrorEnvelope {
  const { headers: _headers, issues, ...counts } = error.extra;
  return envelope(error.code, error.message, requestId, { issues, ...counts });
}

function sendApiError(reply: FastifyReply, request: FastifyRequest, error: ApiError): FastifyReply {
  if (error.extra.headers) reply.headers(error.extra.headers);
  return reply.status(error.status).send(errorEnvelopeOf(error, request.id));
}

/**
 * The one place failures become answers. Expected failures keep their code and message; bad input
 * says which field and why; anything unexpected is logged with the request id and answered 500
 * without internals.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isStorageUnavailable(error)) {
      request.log.warn({ err: error }, 'file store unavailable');
      return sendApiError(reply, request, storageUnavailable());
    }
    if (error instanceof ApiError) return sendApiError(reply, request, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const location = contextLocation[error.validationContext ?? 'body'] ?? 'body';
      const issues: FieldIssue[] = error.validation.map((v) => ({
        location,
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'is invalid',
      }));
      return reply
        .status(400)
        .send(
          envelope('validation_failed', `Invalid request: ${describeIssues(issues)}`, request.id, { issues }),
        );
    }
    const known = error.code ? fastifyCodes[error.code] : undefined;
    if (known) {
      const status = errorStatus[known.code];
      const answer = envelope(
        known.code,
        known.message?.(error, request.routeOptions.bodyLimit) ?? error.message,
        request.id,
      );
      // The client may still be writing the body: read the rest (bounded) so it can read the 413.
      if (known.code === 'payload_too_large') {
        return discardBody(request.raw).then(() => reply.status(status).send(answer));
      }
      return reply.status(status).send(answer);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(envelope(statusCodeName(status), error.message, request.id));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(
        envelope(
          'internal_error',
          `${messages.genericError}. Quote request id ${request.id} when you contact support.`,
          request.id,
        ),
      );
  });
}
