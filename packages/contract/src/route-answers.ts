import { type ErrorCode, errorStatus } from './errors.js';
import type { RouteSpec } from './route-spec.js';

/**
 * What each route can answer, for the OpenAPI document: its error codes (those every route of its
 * kind gives, and the ones its spec declares in `errors`) and the response headers each answer
 * carries. Kept true by the server's tests, which record every answer they see and fail on one
 * the document does not declare (packages/server/test/answer-recorder.ts).
 */

/** The refusals every route of a kind can give, whatever its handler does. */
export function defaultErrorCodes(route: RouteSpec): ErrorCode[] {
  // Any request: a field or parameter refused, the client address over its limit, our fault.
  const codes: ErrorCode[] = ['bad_request', 'validation_failed', 'rate_limited', 'internal_error'];
  if (route.auth !== 'none') {
    // No, bad or expired credentials; a disabled account; a role (or an act-as) that may not;
    // the identity provider's keys out of reach.
    codes.push(
      'unauthorized',
      'invalid_api_key',
      'token_expired',
      'account_disabled',
      'forbidden',
      'service_unavailable',
    );
  }
  // An admin area route called by an admin without a second factor, where one is required.
  if (route.auth !== 'none' && route.auth !== 'user') codes.push('mfa_required');
  // A body (any POST, PUT, PATCH or DELETE may carry one): not JSON, too large, or of another type.
  if (route.method !== 'GET') codes.push('invalid_json', 'payload_too_large', 'unsupported_media_type');
  if (route.method !== 'GET' && !route.streamBody) {
    // `Idempotency-Key`: the same key still being answered, or sent before with another request.
    codes.push('idempotency_key_in_progress', 'idempotency_key_reused');
  }
  // A path naming an object (a job, a file, a user...) that does not exist, or is someone else's.
  if (route.path.includes('{')) codes.push('not_found');
  return codes;
}

/** Every error code the route can answer, defaults first, each once. */
export function routeErrorCodes(route: RouteSpec): ErrorCode[] {
  return [...new Set([...defaultErrorCodes(route), ...(route.errors ?? [])])];
}

/** The route's error codes grouped by HTTP status, statuses in order. */
export function routeErrorStatuses(route: RouteSpec): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  const codes = routeErrorCodes(route).sort((a, b) => errorStatus[a] - errorStatus[b]);
  for (const code of codes) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

/** The response headers the API sends, by their OpenAPI component name. */
export const ANSWER_HEADERS = {
  RequestId: {
    name: 'x-request-id',
    description: 'The request id, on every answer (and in `error.request_id`): quote it to support.',
  },
  RateLimit: {
    name: 'ratelimit',
    description:
      'Each rate-limit policy\'s state now (draft-ietf-httpapi-ratelimit-headers): `"address";r=297;t=1`, requests remaining and seconds until the window resets.',
  },
  RateLimitPolicy: {
    name: 'ratelimit-policy',
    description: 'The rate-limit policies the request was counted against: `"address";q=300;w=1`.',
  },
  RetryAfter: {
    name: 'retry-after',
    description: 'Seconds to wait before trying again.',
  },
  IdempotentReplayed: {
    name: 'idempotent-replayed',
    description:
      '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
  },
  ScrubJobId: {
    name: 'scrub-job-id',
    description: 'The job the streamed file became, for `GET /bulk/jobs/{job_id}`.',
  },
  ScrubCreditsDeducted: {
    name: 'scrub-credits-deducted',
    description:
      "With `Accept: text/csv` or `application/x-ndjson`: the batch's `credits_deducted`. Absent for unlimited users.",
  },
  ScrubCreditsRemaining: {
    name: 'scrub-credits-remaining',
    description:
      "With `Accept: text/csv` or `application/x-ndjson`: the batch's `credits_remaining`. Absent for unlimited users.",
  },
} as const;
export type AnswerHeader = keyof typeof ANSWER_HEADERS;

/** Statuses whose answer a repeated `Idempotency-Key` replays (the route registry's stored refusals). */
const REPLAYED_REFUSALS = new Set([402, 409, 410]);

/** The headers an answer of this route with this status may carry. */
export function answerHeaders(route: RouteSpec, status: number): AnswerHeader[] {
  const headers: AnswerHeader[] = ['RequestId', 'RateLimit', 'RateLimitPolicy'];
  if (status === 429 || status === 503 || status === errorStatus.idempotency_key_in_progress) {
    headers.push('RetryAfter');
  }
  const success = status === (route.status ?? 200);
  const replayable = route.method !== 'GET' && !route.streamBody;
  if (replayable && (success || REPLAYED_REFUSALS.has(status))) headers.push('IdempotentReplayed');
  if (route.streamBody && success) headers.push('ScrubJobId');
  if (route.answerFormats && success) headers.push('ScrubCreditsDeducted', 'ScrubCreditsRemaining');
  return headers;
}
