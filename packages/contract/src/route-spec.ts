import type { z } from 'zod';
import type { ErrorCode } from './errors.js';

/**
 * The contract's resources: one file each (`<resource>.ts`, its schemas and its routes), one server
 * route module, one SDK resource. A route belongs to exactly one.
 */
export const RESOURCES = [
  'verify',
  'bulk',
  'files',
  'suppression',
  'account',
  'api-key',
  'plans',
  'cards',
  'purchases',
  'subscriptions',
  'admin',
  'service',
  'webhooks',
  'checks',
  'usage',
] as const;
export type ResourceName = (typeof RESOURCES)[number];

/**
 * none: public. user: a bearer ID token or an API key (`x-api-key`). agency: a bearer ID token of
 * an Agency (its own client accounts only), Admin or Super Admin. admin: a bearer ID token of an
 * Admin or Super Admin. super_admin: a bearer ID token of a Super Admin. Which roles each level
 * admits is the server's one access table (docs/auth.md).
 */
export type RouteAuth = 'none' | 'user' | 'agency' | 'admin' | 'super_admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI style: `/bulk/jobs/{job_id}`. */
  path: string;
  auth: RouteAuth;
  /**
   * Set by `defineRoutes` from the file the route is written in; every route of `routes` has one
   * (tested). Optional so that a test can make up a route of its own.
   */
  resource?: ResourceName;
  /**
   * Written down but not served yet: the server answers 404, and the coverage test fails the day
   * it is served without this mark removed.
   */
  planned?: true;
  /**
   * Only the account's owner, signed in as themselves: an acting session (an admin's act-as token,
   * or an Agency acting for a client) is refused with 403 (`messages.ownerOnly`). Acting as someone
   * is checking and fixing their work, never taking their credentials: API keys, sign-in details,
   * MFA and the account's deletion are theirs alone.
   */
  ownerOnly?: true;
  /**
   * A GET that changes something (the seed's `GET /verify` spends a credit). An acting session's
   * GETs are reads and are not written to the audit log one by one; a GET marked so is, like every
   * other method. Only GET routes carry it (tested).
   */
  changesState?: true;
  /** The API key may also come as the `k` query parameter (/verify and /credits, as the seeds show). */
  apiKeyInQuery?: boolean;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The body may also come as `text/csv`, one value per line, which the server reads into `body`
   * (`POST /verify`: `{"phones": [...]}`).
   */
  csvBody?: true;
  /**
   * The body is a file streamed as it is read (`text/csv`, any size), not JSON, and the answer a
   * stream made while it arrives (`POST /bulk/jobs/stream`): no `Idempotency-Key` replay.
   */
  streamBody?: true;
  /**
   * Other formats the answer comes in when `Accept` names one (JSON stays the default): the
   * results one per line, the rest (the batch's credits) in `Scrub-Credits-*` headers.
   */
  answerFormats?: readonly ('text/csv' | 'application/x-ndjson')[];
  /** Absent when the answer is not JSON (CSV downloads). */
  response?: z.ZodType;
  /** The JSON answer may also come as CSV, for a request whose `Accept` header asks `text/csv` first. */
  csvAnswer?: true;
  status?: number;
  /**
   * The refusals its handler can give beside the ones every route of its kind gives (bad input,
   * credentials, rate limits, bodies, `Idempotency-Key`, path objects not found: see
   * `route-answers.ts`). Each code's status is `errorStatus`'s; the OpenAPI document lists them.
   */
  errors?: readonly ErrorCode[];
}

/** A route as its resource's file writes it: the resource is the file's, given once. */
export type RouteDefinition = Omit<RouteSpec, 'resource'>;

export const defineRoute = <const R extends RouteSpec>(route: R): R => route;

/** One resource's routes, each tagged with the resource, their literal types kept. */
export function defineRoutes<const Res extends ResourceName, const T extends Record<string, RouteDefinition>>(
  resource: Res,
  table: T,
): { [K in keyof T]: T[K] & { resource: Res } } {
  const tagged: Record<string, RouteSpec> = {};
  for (const [name, route] of Object.entries(table)) tagged[name] = defineRoute({ ...route, resource });
  return tagged as { [K in keyof T]: T[K] & { resource: Res } };
}

/** One object type rather than an intersection, for readable hovers and errors. */
type Flat<T> = { [K in keyof T]: T[K] } & {};

type Part<T> = T extends z.ZodType ? z.input<T> : Record<never, never>;

/**
 * What a call of the route takes, as the SDK's `request` takes it: path parameters, query and body
 * fields in one object (no route has two of them share a name). Input types, so defaults are optional.
 */
export type InputOf<R extends RouteSpec> = Flat<Part<R['params']> & Part<R['query']> & Part<R['body']>>;

/** What a call answers: the parsed JSON, or for a download (no `response` schema) its body as a stream. */
export type OutputOf<R extends RouteSpec> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : ReadableStream<Uint8Array>;

/** The longest path parameter the service routes (its router's `maxParamLength`); longer is a 400. */
export const MAX_PATH_PARAM_LENGTH = 100;

/** Fills `{name}` placeholders of a route path, escaping each value. */
export function pathFor(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The names of a path's `{placeholders}`, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}
