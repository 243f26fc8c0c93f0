import { type HttpMethod, type RouteSpec, withoutEmptyQueryValues } from '@scrub/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AuthRequirement } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import { ApiError } from '../errors/api-error.js';
import { errorEnvelopeOf } from './error-handler.js';
import { fingerprintOf, type IdempotencyStore, idempotencyKeyOf } from './idempotency.js';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
type Answer<R extends RouteSpec> = R['response'] extends z.ZodType ? z.input<R['response']> : unknown;

/** Authenticated routes receive the caller; public ones receive null. */
type PrincipalOf<R extends RouteSpec> = R['auth'] extends 'none' ? null : Principal;

/** Works out who is calling, or throws the 401 or 403 (the server's Authenticator). */
export interface RouteAuthenticator {
  authenticate(request: FastifyRequest, requirement: AuthRequirement): Promise<Principal>;
}

/** Counts an authenticated request against its account's limits, or throws the 429. */
export interface PrincipalLimiter {
  admitPrincipal(request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void>;
}

export interface RouteRequest<R extends RouteSpec> {
  principal: PrincipalOf<R>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  body: Infer<R['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RouteHandler<R extends RouteSpec> = (input: RouteRequest<R>) => Promise<Answer<R>>;

export interface RouteOptions<R extends RouteSpec> {
  /**
   * Writes the route's answer as JSON in place of the contract's serializer (zod's check of the
   * answer, then `JSON.stringify`), for an answer too large to check item by item. It must write
   * what the contract's would: its test compares the two.
   */
  serialize?: (answer: Answer<R>) => string;
  /**
   * Other ways to write the answer, by media type (`text/csv`), for a request whose `Accept` names
   * one (JSON stays the default). An `Idempotency-Key` replay is written the same way.
   */
  formats?: Record<string, (answer: Answer<R>) => FormattedAnswer>;
}

/** An answer written in another format than JSON: its text and the headers that carry the rest. */
export interface FormattedAnswer {
  body: string;
  headers: Record<string, string>;
}

type Format = (answer: unknown) => FormattedAnswer & { type: string };

/** The first of `formats` that `Accept` names, if any: the caller's order, JSON when none. */
function formatOf(
  accept: string | undefined,
  formats: Record<string, (answer: never) => FormattedAnswer> | undefined,
): Format | undefined {
  if (!accept || !formats) return undefined;
  for (const part of accept.split(',')) {
    const type = part.split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json' || type === '*/*') return undefined;
    const write = formats[type] as ((answer: unknown) => FormattedAnswer) | undefined;
    if (write) return (answer) => ({ ...write(answer), type });
  }
  return undefined;
}

function sendFormatted(reply: FastifyReply, status: number, formatted: FormattedAnswer & { type: string }) {
  return reply
    .status(status)
    .headers(formatted.headers)
    .type(`${formatted.type}; charset=utf-8`)
    .send(formatted.body);
}

/**
 * Refusals that are the outcome of the work (402: a card declined, 3-D Secure wanted, credits short;
 * 409: the account's state refuses it; 410: a link used up) are stored like answers, so a retry
 * with the same key gets the same refusal and is never charged twice. Refusals before any work
 * (400 bad input, 401, 403, 404, 429) and failures (5xx) are not: the same key may be sent again
 * once the request is fixed, and every payment call carries a key derived from it, so re-running
 * the work charges once.
 */
const STORED_REFUSALS = new Set([402, 409, 410]);

/** Methods some route, the CORS preflight or the dashboard serves; any other is refused before its body. */
const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `/bulk/jobs/{job_id}` becomes `/bulk/jobs/:job_id` for Fastify and a regular expression for 405s. */
const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const toPattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}/?$`);

/**
 * Registers routes straight from the contract's route table, so a path, its schemas and its status
 * are written once. It also remembers them, to answer 405 (with Allow) for a known path and a wrong method.
 */
export class RouteRegistry {
  readonly #known: { pattern: RegExp; method: HttpMethod }[] = [];
  readonly #principals = new WeakMap<FastifyRequest, Principal>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly authenticator?: RouteAuthenticator,
    /** Where answers to requests with an `Idempotency-Key` are kept; without it the header is ignored. */
    private readonly idempotency?: IdempotencyStore,
    private readonly limiter?: PrincipalLimiter,
  ) {}

  add<R extends RouteSpec>(spec: R, handler: RouteHandler<R>, options: RouteOptions<R> = {}): void {
    const { serialize, formats } = options;
    const { authenticator } = this;
    if (spec.auth !== 'none' && !authenticator) {
      throw new Error(
        `${spec.method} ${spec.path} needs authentication, but this registry has no authenticator`,
      );
    }
    this.#known.push({ pattern: toPattern(spec.path), method: spec.method });
    const status = spec.status ?? 200;
    const define = (app: FastifyInstance) =>
      app.withTypeProvider<ZodTypeProvider>().route({
        method: spec.method,
        url: toFastifyPath(spec.path),
        schema: {
          ...(spec.query ? { querystring: spec.query } : {}),
          ...(spec.params ? { params: spec.params } : {}),
          ...(spec.body ? { body: spec.body } : {}),
          ...(spec.response ? { response: { [status]: spec.response } } : {}),
        },
        // The contract's one rule for `name=` (an empty value is absent), before the query is checked.
        ...(spec.query
          ? {
              preValidation: async (request: FastifyRequest) => {
                request.query = withoutEmptyQueryValues(request.query as Record<string, unknown>);
              },
            }
          : {}),
        ...(serialize ? { serializerCompiler: () => serialize as (data: unknown) => string } : {}),
        // Before the body is read: a caller without credentials learns that first, whatever they sent.
        ...(spec.auth !== 'none' && authenticator
          ? {
              onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
                const principal = await authenticator.authenticate(request, spec);
                this.#principals.set(request, principal);
                await this.limiter?.admitPrincipal(request, reply, principal);
              },
            }
          : {}),
        handler: async (request, reply) => {
          const principal = this.#principals.get(request) ?? null;
          if (spec.auth !== 'none' && !principal) {
            throw new Error(`${spec.path} reached its handler unauthenticated`);
          }
          const run = () =>
            handler({
              principal: principal as PrincipalOf<R>,
              query: request.query as Infer<R['query']>,
              params: request.params as Infer<R['params']>,
              body: request.body as Infer<R['body']>,
              request,
              reply,
            });
          const format = formatOf(request.headers.accept, formats);
          if (spec.method === 'GET') return reply.status(status).send(await run());
          // A streamed answer is written by its handler (reply.hijack) and cannot be replayed.
          if (spec.streamBody) {
            await run();
            return reply;
          }
          return this.#once(
            request,
            reply,
            principal,
            status,
            run,
            serialize as ((answer: unknown) => string) | undefined,
            format,
          );
        },
      });
    if (!spec.streamBody) {
      define(this.app);
      return;
    }
    // In a scope of its own: the body reaches the handler unread, as a stream of any size, and the
    // handler judges its type; the rest of the API keeps its parsers.
    this.app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      define(scope);
    });
  }

  /**
   * Every POST, PUT, PATCH and DELETE honours `Idempotency-Key`: the first request with a key does
   * the work; the same request again is answered what the first was (`Idempotent-Replayed: true`).
   */
  async #once(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal | null,
    status: number,
    run: () => Promise<unknown>,
    serialize?: (answer: unknown) => string,
    format?: Format,
  ): Promise<FastifyReply> {
    const key = this.idempotency && idempotencyKeyOf(request.headers['idempotency-key']);
    if (!this.idempotency || !key) {
      const answer = await run();
      return format ? sendFormatted(reply, status, format(answer)) : reply.status(status).send(answer);
    }
    const store = this.idempotency;
    const scope = principal?.profileId ?? 'public';
    const started = await store.begin(scope, key, fingerprintOf(request.method, request.url, request.body));
    if (started.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      const success = started.status === status;
      if (format && success) return sendFormatted(reply, status, format(started.body));
      return reply.status(started.status).send(started.body);
    }
    let answer: unknown;
    try {
      answer = await run();
    } catch (error) {
      if (error instanceof ApiError && STORED_REFUSALS.has(error.status)) {
        await store.complete(scope, key, error.status, errorEnvelopeOf(error, request.id));
      } else {
        await store.abandon(scope, key);
      }
      throw error;
    }
    if (!serialize) {
      await store.complete(scope, key, status, answer);
      return format ? sendFormatted(reply, status, format(answer)) : reply.status(status).send(answer);
    }
    // Written once, for the store and the reply (a batch check's answer is megabytes).
    const json = serialize(answer);
    await store.complete(scope, key, status, answer, json);
    if (format) return sendFormatted(reply, status, format(answer));
    return reply.status(status).type('application/json; charset=utf-8').send(json);
  }

  /** Methods allowed on a concrete URL path; empty when no route has that path. */
  allowedMethods(url: string): HttpMethod[] {
    const path = url.split('?')[0] ?? url;
    return this.#known.filter((k) => k.pattern.test(path)).map((k) => k.method);
  }

  installNotFoundHandler(): void {
    // A method no route serves (QUERY, PROPFIND...) is answered before Fastify reads a body for
    // it: 405 with Allow on a known path, 404 elsewhere (never a 400 about its Content-Type).
    this.app.addHook('onRequest', async (request) => {
      if (!SERVED_METHODS.has(request.method)) this.#refuse(request);
    });
    this.app.setNotFoundHandler((request) => this.#refuse(request));
  }

  /** The 404 or 405 for a request no route took. */
  #refuse(request: FastifyRequest): never {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = this.allowedMethods(request.url);
    if (path.length > 1 && path.endsWith('/') && allowed.includes(request.method as HttpMethod)) {
      throw new ApiError(
        'not_found',
        `No such endpoint: ${request.method} ${path}. Paths take no trailing slash: ${request.method} ${path.replace(/\/+$/, '')}.`,
      );
    }
    // The method is served on a path of this shape, yet the router found no route: a path
    // parameter longer than the router takes (its maxParamLength, Fastify's default 100).
    if (allowed.includes(request.method as HttpMethod)) {
      if (path.split('/').some((segment) => segment.length > 100)) {
        throw new ApiError(
          'bad_request',
          'A segment of the URL path is longer than this API accepts (100 characters).',
        );
      }
      throw new ApiError('not_found', `No such endpoint: ${request.method} ${path}`);
    }
    if (allowed.length > 0) {
      throw new ApiError(
        'method_not_allowed',
        `${request.method} is not allowed on ${request.url.split('?')[0]}; use ${allowed.join(', ')}.`,
        {
          headers: { allow: allowed.join(', ') },
        },
      );
    }
    throw new ApiError('not_found', `No such endpoint: ${request.method} ${request.url.split('?')[0]}`);
  }
}
