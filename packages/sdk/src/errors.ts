import type { BulkJob, ErrorCode, FieldIssue } from '@scrub/contract';
import { retryAfterMs } from './core/retry.js';

/** Every error the SDK throws is a ScrubError, so one `instanceof` check catches them all. */
export class ScrubError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Proxies and crashed servers answer in HTML or plain text; keep a short, readable excerpt of it. */
function excerpt(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}...` : plain;
}

function fallbackMessage(body: unknown): string {
  if (typeof body === 'string' && body.trim()) return excerpt(body);
  if (isFields(body)) return excerpt(JSON.stringify(body));
  return 'status code (no body)';
}

/** The server answered with a status other than 2xx. */
export class APIError extends ScrubError {
  readonly status: number;
  /** The contract's error code; typed open-ended because a newer server may send codes this SDK predates. */
  readonly code: ErrorCode | (string & {}) | undefined;
  /** Quote it to support: the server logs every failure under it. */
  readonly requestId: string | undefined;
  /** For bad input: which field, and why. */
  readonly issues: FieldIssue[] | undefined;
  readonly headers: Headers;
  /** The parsed JSON body, or the text when the body was not JSON. */
  readonly body: unknown;
  /**
   * The service's own sentence, as a person should read it (`Not enough credits: ...`), without the
   * status `message` starts with; undefined when the answer carried none (a proxy's page, S3's XML).
   */
  readonly serviceMessage: string | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    const envelope = isFields(body) ? body : {};
    const error = isFields(envelope.error) ? envelope.error : {};
    const serviceMessage = asString(error.message) ?? asString(envelope.message);
    super(`${status} ${serviceMessage ?? fallbackMessage(body)}`);
    this.serviceMessage = serviceMessage;
    this.status = status;
    this.code = asString(error.code);
    this.requestId = asString(error.request_id) ?? headers.get('x-request-id') ?? undefined;
    this.issues = Array.isArray(error.issues) ? (error.issues as FieldIssue[]) : undefined;
    this.headers = headers;
    this.body = body;
  }

  /** A field of the body's top level, when it is a string (`decline_code`, `client_secret`). */
  protected bodyString(key: string): string | undefined {
    return asString(isFields(this.body) ? this.body[key] : undefined);
  }

  /** A field of the body's top level, when it is a number (`credits_required`). */
  protected bodyNumber(key: string): number | undefined {
    return asNumber(isFields(this.body) ? this.body[key] : undefined);
  }

  /** The subclass for the status, so callers can `catch` by kind instead of comparing numbers. */
  static generate(status: number, body: unknown, headers: Headers): APIError {
    const envelope = isFields(body) ? body : {};
    const code = asString(isFields(envelope.error) ? envelope.error.code : undefined);
    const ErrorClass =
      status >= 500
        ? InternalServerError
        : ((code ? errorClassByCode[code] : undefined) ?? errorClassByStatus[status] ?? APIError);
    return new ErrorClass(status, body, headers);
  }
}

export class BadRequestError extends APIError {}
export class AuthenticationError extends APIError {}

export class InsufficientCreditsError extends APIError {
  readonly creditsRequired = this.bodyNumber('credits_required');
  readonly creditsAvailable = this.bodyNumber('credits_available');
  /** A refused batch (`verify.batch`): how many of its billable numbers the balance could pay for. */
  readonly affordable = this.bodyNumber('affordable');
}

export class PermissionDeniedError extends APIError {}
export class NotFoundError extends APIError {}
export class ConflictError extends APIError {}
export class PayloadTooLargeError extends APIError {}
export class UnprocessableEntityError extends APIError {}

export class RateLimitError extends APIError {
  /** Seconds the server asked to wait, when it said. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    super(status, body, headers);
    const milliseconds = retryAfterMs(headers);
    this.retryAfter = milliseconds === undefined ? undefined : milliseconds / 1000;
  }
}

export class InternalServerError extends APIError {}

/** The card was refused; nothing was charged. `declineCode` is the bank's reason (`insufficient_funds`). */
export class CardDeclinedError extends APIError {
  readonly declineCode = this.bodyString('decline_code');
}

/**
 * The bank wants 3-D Secure: nothing is charged until the customer confirms in a browser
 * (`stripe.confirmCardPayment(clientSecret)`, or the dashboard).
 */
export class AuthenticationRequiredError extends APIError {
  readonly clientSecret = this.bodyString('client_secret');
  /** A purchase's payment intent: `scrub.purchases.confirm(paymentIntentId)` once the customer confirmed. */
  readonly paymentIntentId = this.bodyString('payment_intent_id');
  /** A purchase's single-use page (15 minutes) where the customer confirms, no sign-in needed. */
  readonly nextActionUrl = this.bodyString('next_action_url');
}

/** The account's plan is paused: resume it (`scrub.account.setPlanStatus('active')`) to buy or check again. */
export class PlanPausedError extends PermissionDeniedError {}
/** Buying needs a saved card first (`scrub.cards.setup`). */
export class PaymentMethodRequiredError extends ConflictError {}
/** An `Idempotency-Key` was sent again with a different request. */
export class IdempotencyKeyReusedError extends UnprocessableEntityError {}

/** Error codes with a class of their own, more precise than their status's. */
const errorClassByCode: Partial<Record<string, typeof APIError>> = {
  card_declined: CardDeclinedError,
  authentication_required: AuthenticationRequiredError,
  plan_paused: PlanPausedError,
  payment_method_required: PaymentMethodRequiredError,
  idempotency_key_reused: IdempotencyKeyReusedError,
};

const errorClassByStatus: Partial<Record<number, typeof APIError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: InsufficientCreditsError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** No answer came back: the server is unreachable, the connection broke, or the timeout passed. */
export class APIConnectionError extends ScrubError {}

export class APIConnectionTimeoutError extends APIConnectionError {
  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms.`);
  }
}

/** The body of an error answer: its JSON, or its text when it is not JSON (a proxy's page, S3's XML). */
export function parseErrorBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Node's fetch only says "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is in its cause. */
export function connectionFailure(url: string, error: unknown): string {
  const reason = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return `Could not reach ${new URL(url).origin}: ${reason instanceof Error ? reason.message : String(reason)}`;
}

/** The caller's AbortSignal fired. */
export class APIUserAbortError extends ScrubError {
  constructor() {
    super('Request was aborted.');
  }
}

/**
 * A bulk job ended in `failed`: its file could not be scrubbed. `job.error` says why; its credits
 * were given back (`job.credits_reversed`).
 */
export class BulkJobFailedError extends ScrubError {
  readonly job: BulkJob;

  constructor(job: BulkJob) {
    super(`Bulk job ${job.job_id} failed: ${job.error ?? 'no reason given'}`);
    this.job = job;
  }
}

/**
 * Signing up, signing in or keeping a session failed. `code` is the identity provider's exception
 * name when it refused (`NotAuthorizedException`, `CodeMismatchException`...), or one of the SDK's
 * own: `not_signed_in`, `session_expired`, `identity_not_configured`, `NEW_PASSWORD_REQUIRED`.
 * Messages are the product's own, as people see them in the dashboard.
 */
export class AuthError extends ScrubError {
  readonly code: string;

  constructor(message: string, code: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Wrong e-mail or password (also a locked sign-in, or a wrong current password on a change). */
export class InvalidCredentialsError extends AuthError {}
/** The right password of an account whose e-mail is not confirmed yet. */
export class UserNotConfirmedError extends AuthError {}
/** Only where the identity provider says so; the built-in pool, like Cognito's default, hides it. */
export class UserNotFoundError extends AuthError {}
export class UsernameExistsError extends AuthError {}
/** The password breaks the pool's policy; the message names every rule broken. */
export class InvalidPasswordError extends AuthError {}
export class InvalidCodeError extends AuthError {}
export class ExpiredCodeError extends AuthError {}
/** Too many codes, wrong codes or attempts: wait, or ask for a new code. */
export class AuthLimitExceededError extends AuthError {}

/** A call needs a signed-in person and nobody is signed in. */
export class NotSignedInError extends AuthError {
  constructor(message = 'User is not authenticated') {
    super(message, 'not_signed_in');
  }
}

/** The session could not be refreshed (revoked, expired or replaced): it has been removed; sign in again. */
export class SessionExpiredError extends AuthError {
  constructor(options?: ErrorOptions) {
    super('Session expired', 'session_expired', options);
  }
}

/** The service has no identity provider: only API keys work there. */
export class IdentityNotConfiguredError extends AuthError {
  constructor() {
    super(
      'This Scrub service has no identity provider configured, so signing in is not available: use an API key.',
      'identity_not_configured',
    );
  }
}

/**
 * `verifyWebhookSignature` refused a delivery: the `Scrub-Signature` header is missing or
 * malformed, no signature matches the body with this secret, or it was signed too long ago.
 * Answer such a request with 400 and do not act on it.
 */
export class WebhookSignatureError extends ScrubError {}
