import { z } from 'zod';

/**
 * Every expected failure has a stable code. The status is decided here, once, so the server
 * answers and the SDK maps them the same way.
 */
export const errorStatus = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  csv_empty: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  token_expired: 401,
  account_disabled: 401,
  insufficient_credits: 402,
  /** The card was refused; `decline_code` says why when the bank did (`insufficient_funds`). */
  card_declined: 402,
  /** The bank wants 3-D Secure: confirm `client_secret` in a browser (`stripe.confirmCardPayment`). */
  authentication_required: 402,
  forbidden: 403,
  /** The caller's role needs a second factor (`SCRUB_REQUIRE_MFA_FOR`): enrol an authenticator app, then sign in again. */
  mfa_required: 403,
  plan_paused: 403,
  not_found: 404,
  file_not_found: 404,
  /** A payment link that was never issued (mistyped, or forged). */
  payment_link_invalid: 404,
  method_not_allowed: 405,
  /** The request's headers, or all of it, did not arrive in the time the service gives a client. */
  request_timeout: 408,
  conflict: 409,
  /** Buying needs a saved card first (`POST /payment/setup`). */
  payment_method_required: 409,
  /** A request with this `Idempotency-Key` is still being answered. */
  idempotency_key_in_progress: 409,
  results_not_ready: 409,
  /** A payment link past its 15 minutes, or already used: ask for a new one. */
  payment_link_expired: 410,
  /** The file's upload and result were removed (its retention ran out, or its owner deleted them); the message says when and why. */
  file_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** The `Idempotency-Key` was used before with another request. */
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  /** The file store is full or read-only: nothing was stored or charged; try again after `Retry-After`. */
  storage_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];
export const ErrorCodeSchema = z.enum(errorCodes);

/** One problem with one field of the request: `path` is where, `message` is why. */
export const FieldIssueSchema = z.object({
  location: z.enum(['body', 'query', 'params', 'headers']),
  path: z.string(),
  message: z.string(),
});
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/**
 * The error envelope. `message` is repeated at the top level because the seeds' clients read
 * `response.data.message`; a 402 also carries `credits_required` and `credits_available` at the
 * top level, where the bulk wizard reads them.
 */
export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      request_id: z.string().optional(),
      issues: z.array(FieldIssueSchema).optional(),
    }),
    message: z.string(),
    credits_required: z.number().int().optional(),
    credits_available: z.number().int().optional(),
    /**
     * A refused batch (`POST /verify`): how many of its billable numbers the balance could pay for,
     * and how many it needed. Nothing was charged.
     */
    affordable: z.number().int().optional(),
    required: z.number().int().optional(),
    /** Card refusals: the bank's reason (`insufficient_funds`, `generic_decline`), when it gave one. */
    decline_code: z.string().nullable().optional(),
    /** `authentication_required`: the payment intent's client secret, for `stripe.confirmCardPayment`. */
    client_secret: z.string().optional(),
    /** `authentication_required` on a purchase: the payment intent, for `POST /payment/confirm`. */
    payment_intent_id: z.string().optional(),
    /** `authentication_required` on a purchase: a single-use page where the customer confirms it. */
    next_action_url: z.string().optional(),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** Messages users see, from the specification, with its spelling mistakes corrected. */
export const messages = {
  /** A bulk job accepted for scrubbing: the API's answer and the wizard's 'Success' dialog. */
  jobQueued:
    'Your file is queued. It can take up to 20 minutes depending on the number of records; an e-mail is sent when it is ready.',
  accessDenied: 'Access Denied: You do not have permission to perform this action.',
  ownerOnly:
    "Acting sessions cannot do this: API keys, the sign-in e-mail and password, MFA and deleting the account are the account owner's alone. Ask the owner to sign in as themselves.",
  genericError: 'An error occurred',
  resultsNotReady: 'Results not ready',
  noFileFound: 'No file found',
  csvEmpty: 'Csv is empty',
  activateFirst: 'please activate your account first',
} as const;
