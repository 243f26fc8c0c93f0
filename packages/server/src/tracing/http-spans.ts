import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { runInSpan, type Span, type Tracer } from './spans.js';

/** A request id while tracing is off: 32 hex digits, shaped as a W3C trace id. */
export function newRequestId(): string {
  return randomUUID().replaceAll('-', '');
}

/**
 * Fastify's `genReqId`: with tracing on, each request's root span is started here, the first
 * thing Fastify does with a request, and the request id is its trace id (so an error envelope's
 * `request_id` finds the trace). A caller's `traceparent` makes the span a child of the caller's.
 */
export function requestIds(tracer: Tracer | null, roots: WeakMap<IncomingMessage, Span>) {
  if (!tracer) return newRequestId;
  return (raw: IncomingMessage): string => {
    const traceparent = raw.headers.traceparent;
    const span = tracer.startRoot(raw.method ?? 'HTTP', {
      kind: 'server',
      attributes: {
        'http.request.method': raw.method ?? '',
        // The path only: a query may hold an API key (`k=`).
        'url.path': (raw.url ?? '').split('?')[0] ?? '',
      },
      ...(typeof traceparent === 'string' && { traceparent }),
    });
    roots.set(raw, span);
    return span.traceId;
  };
}

/**
 * Keeps each request's root span active through its hooks and handler (re-entered after the body
 * is read, whose events come from the socket), names it by route template, and ends it with the
 * answer's status. At close, the spans still held are sent.
 */
export function installHttpSpans(
  app: FastifyInstance,
  roots: WeakMap<IncomingMessage, Span>,
  tracer: Tracer,
): void {
  app.addHook('onClose', () => tracer.shutdown());
  const enter = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const span = roots.get(request.raw);
    if (span) runInSpan(span, done);
    else done();
  };
  app.addHook('onRequest', (request, reply, done) => {
    const span = roots.get(request.raw);
    const route = request.routeOptions.url;
    if (span && route) {
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'client.address': request.ip });
    }
    enter(request, reply, done);
  });
  app.addHook('preValidation', enter);
  app.addHook('preHandler', enter);
  app.addHook('onResponse', async (request, reply) => {
    const span = roots.get(request.raw);
    if (!span) return;
    span.setAttributes({ 'http.response.status_code': reply.statusCode });
    if (reply.statusCode >= 500) span.fail(String(reply.statusCode));
    span.end();
  });
  app.addHook('onRequestAbort', async (request) => {
    const span = roots.get(request.raw);
    if (!span) return;
    span.fail(new Error('the client closed the connection before the answer'));
    span.end();
  });
}
