import type { Socket } from 'node:net';
import type { ErrorCode } from '@scrub/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { newRequestId } from '../tracing/http-spans.js';
import { envelope } from './error-handler.js';
import { SECURITY_HEADERS } from './security-headers.js';

const answers: Record<string, { status: number; code: ErrorCode; message: (e: FastifyError) => string }> = {
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'bad_request',
    message: () =>
      'The URL path is not valid: it has a broken percent-encoding (a "%" not followed by two hex digits of UTF-8).',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 400,
    code: 'bad_request',
    message: () => 'A segment of the URL path is longer than this API accepts (100 characters).',
  },
};

/**
 * Failures the router meets before any route or hook runs (Fastify's `frameworkErrors`): answered
 * in the API's error envelope like every other refusal.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = error.code ? answers[error.code] : undefined;
  const status = known?.status ?? 400;
  void reply
    .status(status)
    .headers({ ...SECURITY_HEADERS, 'x-request-id': request.id })
    .send(envelope(known?.code ?? 'bad_request', known?.message(error) ?? error.message, request.id));
}

/**
 * Requests Node's HTTP parser refuses (malformed request lines, headers too large, a client too
 * slow: 408): no request
 * exists yet, so the envelope is written to the socket directly, then the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // A client too slow to send its headers, or its whole request (SCRUB_HEADERS_TIMEOUT_SECONDS, SCRUB_REQUEST_TIMEOUT_SECONDS).
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const message = timedOut
    ? 'The request did not arrive in time: send its headers and its body without pausing.'
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are larger than this API accepts.'
      : 'The request is not valid HTTP.';
  const requestId = newRequestId();
  const body = JSON.stringify(envelope(timedOut ? 'request_timeout' : 'bad_request', message, requestId));
  socket.end(
    (timedOut ? 'HTTP/1.1 408 Request Timeout\r\n' : 'HTTP/1.1 400 Bad Request\r\n') +
      'content-type: application/json; charset=utf-8\r\n' +
      `x-request-id: ${requestId}\r\n` +
      Object.entries(SECURITY_HEADERS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
