import {
  type ClientConfig,
  type ContactChallenge,
  type ContactMessage,
  type Health,
  type InputOf,
  type Liveness,
  type Message,
  type OpenApiDocument,
  type OutputOf,
  type ProofKeySet,
  pathFor,
  pathParamNames,
  type Readiness,
  type RouteSpec,
  routes,
} from '@scrub/contract';
import { identityCaller } from './auth/identity-client.js';
import { SessionManager } from './auth/session-manager.js';
import { defaultTokenStorage, type TokenStorage } from './auth/token-storage.js';
import { adoptApiKey, answerHeaders, fetchFunction, pause, streamedBody } from './core/internal.js';
import { isRetryableStatus, retryDelayMs } from './core/retry.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  connectionFailure,
  parseErrorBody,
  ScrubError,
} from './errors.js';
import { Account, Credits } from './resources/account.js';
import { Admin } from './resources/admin.js';
import { ApiKey } from './resources/api-key.js';
import { Auth } from './resources/auth.js';
import { Bulk } from './resources/bulk.js';
import { Cards, Payments } from './resources/cards.js';
import { Checks } from './resources/checks.js';
import { Files } from './resources/files.js';
import { Plans } from './resources/plans.js';
import { Purchases } from './resources/purchases.js';
import { Subscriptions } from './resources/subscriptions.js';
import { Suppression } from './resources/suppression.js';
import { Usage } from './resources/usage.js';
import { createVerify, type Verify } from './resources/verify.js';
import { Webhooks } from './resources/webhooks.js';
import { VERSION } from './version.js';

export interface ClientOptions {
  /** Defaults to `SCRUB_API_URL`, then `http://localhost:8787`. */
  baseURL?: string;
  /**
   * Defaults to `SCRUB_API_KEY`; `null` means none, whatever the environment says. Sent as the
   * `x-api-key` header, except on calls made with a signed-in session's ID token.
   */
  apiKey?: string | null;
  /**
   * Where a signed-in session is kept: a file for a command line, your own store. Default: the
   * browser's `localStorage` in a browser; elsewhere memory, for the life of the client.
   */
  tokenStorage?: TokenStorage;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Milliseconds per attempt. Default 60 000. */
  timeout?: number;
  /** Sent with every request. */
  defaultHeaders?: Record<string, string>;
}

/** Per-call overrides of the client's options. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

/**
 * What one call of a route takes: its path parameters, query and body fields in one object, as the
 * contract's `InputOf` types them. Undefined values are left out of the query.
 */
export type RequestInput<R extends RouteSpec = RouteSpec> = InputOf<R>;

/** The input may be left out for a route that needs none. */
type RequestArgs<R extends RouteSpec> =
  Record<never, never> extends InputOf<R>
    ? [input?: InputOf<R>, options?: RequestOptions]
    : [input: InputOf<R>, options?: RequestOptions];

/** One call's input sorted into the parts of an HTTP request. */
interface RequestParts {
  params: Record<string, string | number>;
  query: Record<string, unknown>;
  body: unknown;
}

/** The options of a call whose route takes a streamed file (`streamBody`): the file itself. */
export interface StreamedRequestOptions extends RequestOptions {
  [streamedBody]?: ReadableStream<Uint8Array>;
  [answerHeaders]?: (headers: Headers) => void;
}

/** Browsers have no `process`, and some bundlers provide one without `env`. */
function readEnv(name: string): string | undefined {
  return globalThis.process?.env?.[name]?.trim() || undefined;
}

/** What authenticates one call: a session's ID token, an API key, or nothing. */
interface Credential {
  idToken?: string;
  apiKey?: string;
}

/** What a successful answer is read as: JSON, or (downloads) its body as a stream, left unread. */
type Answer = 'json' | 'stream';

/**
 * Path placeholders are named in the path; a route with a body takes its query fields by the query
 * schema's keys and the rest as the body; a route without one sends everything else as the query.
 */
function splitInput(route: RouteSpec, input: object = {}): RequestParts {
  const paramNames = new Set(pathParamNames(route.path));
  const queryShape = (route.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const parts: RequestParts = { params: {}, query: {}, body: undefined };
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (paramNames.has(name)) parts.params[name] = value as string | number;
    else if (!route.body || name in queryShape) parts.query[name] = value;
    else body[name] = value;
  }
  if (route.body) parts.body = body;
  return parts;
}

export class Scrub {
  readonly baseURL: string;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly tokenStorage: TokenStorage;
  private readonly defaultHeaders: Record<string, string>;
  private readonly fetchImpl: typeof fetch | undefined;
  #apiKey: string | undefined;
  readonly #sessions: SessionManager;

  readonly plans: Plans;
  /** Sign-up, sign-in and the session. */
  readonly auth: Auth;
  /** The caller's own account: profile, plan status, credits. */
  readonly account: Account;
  /** @deprecated Use `account` (the same object). */
  readonly user: Account;
  readonly apiKey: ApiKey;
  /** @deprecated `credits.get()` is `account.credits()`. */
  readonly credits: Credits;
  /** `verify(phone)` checks one number; `verify.many(phones)` checks a stream of them. */
  readonly verify: Verify;
  /** CSV files scrubbed whole: create a job, upload, submit, wait; or all of it with `run`. */
  readonly bulk: Bulk;
  /** The files of bulk jobs: the list, one file, downloads of the result and of the upload. */
  readonly files: Files;
  /** The account's own suppression list (internal DNC): add, remove, import, list, export. */
  readonly suppression: Suppression;
  /** @deprecated Use `suppression` (the same object). */
  readonly dnc: Suppression;
  /** Accounts and the audit log, for Admins and Super Admins. */
  readonly admin: Admin;
  /** Saved cards, and the single-use links that add one in a browser. */
  readonly cards: Cards;
  /** @deprecated Use `cards`; its `buy`, `confirm` and `waitForConfirmation` are on `purchases`. */
  readonly payments: Payments;
  /** One-off purchases and the purchase history. */
  readonly purchases: Purchases;
  /** The monthly plan. */
  readonly subscriptions: Subscriptions;
  /** @deprecated Use `subscriptions` (the same object). */
  readonly subscription: Subscriptions;
  /** Endpoints told when bulk jobs end, and their delivery logs. */
  readonly webhooks: Webhooks;
  /** The phone log: every single check, paged, filtered, exported as CSV. */
  readonly checks: Checks;
  /** Client Performance: usage by day or week (an Agency: each client and the total). */
  readonly usage: Usage;

  constructor(options: ClientOptions = {}) {
    this.baseURL = (options.baseURL ?? readEnv('SCRUB_API_URL') ?? 'http://localhost:8787').replace(
      /\/+$/,
      '',
    );
    this.#apiKey = options.apiKey === null ? undefined : (options.apiKey ?? readEnv('SCRUB_API_KEY'));
    this.maxRetries = options.maxRetries ?? 2;
    this.timeout = options.timeout ?? 60_000;
    this.defaultHeaders = options.defaultHeaders ?? {};
    this.fetchImpl = options.fetch;
    this.tokenStorage = options.tokenStorage ?? defaultTokenStorage();
    this.#sessions = new SessionManager(
      this.tokenStorage,
      identityCaller(() => ({ fetch: this.fetchImpl ?? fetch, timeout: this.timeout })),
    );
    this.plans = new Plans(this);
    this.auth = new Auth(this, this.#sessions);
    this.account = new Account(this);
    this.user = this.account;
    this.apiKey = new ApiKey(this);
    this.credits = new Credits(this);
    this.verify = createVerify(this);
    this.bulk = new Bulk(this);
    this.files = new Files(this);
    this.suppression = new Suppression(this);
    this.dnc = this.suppression;
    this.admin = new Admin(this);
    this.cards = new Cards(this);
    this.payments = new Payments(this);
    this.purchases = new Purchases(this);
    this.subscriptions = new Subscriptions(this);
    this.subscription = this.subscriptions;
    this.webhooks = new Webhooks(this);
    this.checks = new Checks(this);
    this.usage = new Usage(this);
  }

  /** Service status, version and which reference data answers. Public. */
  health(options?: RequestOptions): Promise<Health> {
    return this.request(routes.health, {}, options);
  }

  /** Liveness, as an orchestrator probes it: the service's process is up and answers. Public. */
  healthLive(options?: RequestOptions): Promise<Liveness> {
    return this.request(routes.healthLive, {}, options);
  }

  /**
   * Readiness, as an orchestrator probes it: database and file store reachable, required
   * do-not-call lists loaded and fresh, migrations applied. Public. Not ready is a 503
   * (an `APIError` with `status` 503, retried like any 503 unless `maxRetries: 0`) naming what is not.
   */
  healthReady(options?: RequestOptions): Promise<Readiness> {
    return this.request(routes.healthReady, {}, options);
  }

  /** What clients need to know about this deployment: identity pool, payment provider, limits. Public. */
  config(options?: RequestOptions): Promise<ClientConfig> {
    return this.request(routes.config, {}, options);
  }

  /** This API as an OpenAPI 3.1 document, for generating a client in another language. Public. */
  openApi(options?: RequestOptions): Promise<OpenApiDocument> {
    return this.request(routes.openApi, {}, options);
  }

  /**
   * The public keys proofs of scrub are signed with (a JWKS: the current key first, then retired
   * ones). Public. Keep a copy with your proofs to verify them offline with `verifyProof`.
   */
  proofKeys(options?: RequestOptions): Promise<ProofKeySet> {
    return this.request(routes.proofKeys, {}, options);
  }

  /**
   * Sends a message to the service's operator, as the dashboard's Contact page does. Public; a few
   * per hour from one address (then a `RateLimitError`). Not retried: a retry could mail it twice.
   * `altcha` is the solved human check of `contactChallenge()` (see there).
   */
  contact(message: ContactMessage, options?: RequestOptions): Promise<Message> {
    return this.request(routes.contact, message, { maxRetries: 0, ...options });
  }

  /**
   * A human check for `contact()`: an ALTCHA proof-of-work challenge, signed by the service, which
   * expires and counts once. Solve it with `solveChallenge` of the `altcha-lib` package (its
   * `algorithms/web/sha` or `algorithms/sha` `deriveKey`), then send base64 of
   * `JSON.stringify({ challenge, solution })` as the message's `altcha`.
   */
  contactChallenge(options?: RequestOptions): Promise<ContactChallenge> {
    return this.request(routes.contactChallenge, {}, options);
  }

  /**
   * Calls one route of the contract, retrying what may pass on a second try, and answers what the
   * contract says the route answers (`OutputOf`): parsed JSON, or for a download its body as a
   * stream, read as the caller reads it (the timeout covers the wait for the answer, not the body).
   * Resources are built on it, so none can disagree with the contract; it is public so a route the
   * SDK does not wrap yet can still be called: `scrub.request(routes.getBulkJob, { job_id })`.
   *
   * Calls that need credentials go with the session's ID token when someone is signed in
   * (refreshed first when it has expired), otherwise with the API key. When the API refuses a
   * session's token, the session is refreshed and the call made once more; refused again, the
   * session is forgotten.
   */
  async request<R extends RouteSpec>(
    route: R,
    ...[input, options = {}]: RequestArgs<R>
  ): Promise<OutputOf<R>> {
    const parts = splitInput(route, input ?? {});
    const answer: Answer = route.response ? 'json' : 'stream';
    return (await this.call(route, parts, options, answer)) as OutputOf<R>;
  }

  private async call(route: RouteSpec, parts: RequestParts, options: RequestOptions, answer: Answer) {
    const url = this.buildURL(route, parts);
    // Made once per call, so every retry (and the resend after a refresh) carries the same key.
    // A streamed body is sent once, never replayed: no key to replay it by.
    const idempotencyKey = route.method === 'GET' || route.streamBody ? undefined : crypto.randomUUID();
    const send = (credential: Credential) =>
      this.send(
        route,
        url,
        parts.body,
        options,
        this.buildHeaders(parts.body, options, credential, idempotencyKey),
        answer,
      );

    const session = route.auth === 'none' ? null : await this.#sessions.fresh();
    if (!session) return send(this.#apiKey ? { apiKey: this.#apiKey } : {});
    try {
      return await send({ idToken: session.idToken });
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
    }
    // Fresh by this machine's clock, yet refused: revoked elsewhere, or the clocks disagree.
    const refreshed = await this.#sessions.refresh(session);
    try {
      return await send({ idToken: refreshed.idToken });
    } catch (error) {
      if (error instanceof AuthenticationError) this.#sessions.forget();
      throw error;
    }
  }

  /** The API key just issued replaces the one this client was using, which no longer works. */
  [adoptApiKey](key: string): void {
    if (this.#apiKey !== undefined) this.#apiKey = key;
  }

  /** For requests outside the API, such as the PUT to an upload URL: the fetch given, if any. */
  [fetchFunction](): typeof fetch | undefined {
    return this.fetchImpl;
  }

  /** For waits outside the retries, such as polling a job, so a subclass's `sleep` sees them too. */
  [pause](ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleep(ms, signal);
  }

  private async send(
    route: RouteSpec,
    url: string,
    body: unknown,
    options: RequestOptions,
    headers: Headers,
    answer: Answer,
  ): Promise<unknown> {
    const streamed = route.streamBody ? (options as StreamedRequestOptions)[streamedBody] : undefined;
    const init: RequestInit = streamed
      ? // A file streamed as it is read: sent once (no retries), and never kept for a redirect
        // (Node's fetch would otherwise hold every byte sent, nodejs/undici#4058).
        ({ method: route.method, headers, body: streamed, duplex: 'half', redirect: 'error' } as RequestInit)
      : { method: route.method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    if (streamed) headers.set('content-type', 'text/csv');
    const maxRetries = streamed ? 0 : (options.maxRetries ?? this.maxRetries);

    for (let retriesDone = 0; ; retriesDone++) {
      const canRetry = retriesDone < maxRetries;
      let exchange: { response: Response; text: string };
      try {
        exchange = await this.exchange(url, init, options, answer);
      } catch (error) {
        if (!canRetry || !(error instanceof APIConnectionError)) throw error;
        await this.sleep(retryDelayMs(retriesDone), options.signal);
        continue;
      }

      const { response, text } = exchange;
      if (response.ok && answer === 'stream') {
        (options as StreamedRequestOptions)[answerHeaders]?.(response.headers);
        return downloadStream(url, response, options.signal);
      }
      if (response.ok) {
        try {
          return JSON.parse(text);
        } catch {
          throw new ScrubError(
            `${route.method} ${route.path} answered ${response.status} with a body that is not JSON: is ${this.baseURL} the Scrub API?`,
          );
        }
      }
      if (!canRetry || !isRetryableStatus(response.status)) {
        throw APIError.generate(response.status, parseErrorBody(text), response.headers);
      }
      await this.sleep(retryDelayMs(retriesDone, response.headers), options.signal);
    }
  }

  /** Waits between retries; a subclass may replace it (tests record the delays instead of waiting). */
  protected sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new APIUserAbortError());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(new APIUserAbortError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private buildURL(route: RouteSpec, { params, query }: RequestParts): string {
    const url = new URL(this.baseURL + pathFor(route.path, params));
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private buildHeaders(
    body: unknown,
    options: RequestOptions,
    credential: Credential,
    idempotencyKey: string | undefined,
  ): Headers {
    const headers = new Headers({ accept: 'application/json', 'x-scrub-client': `sdk/${VERSION}` });
    if (body !== undefined) headers.set('content-type', 'application/json');
    if (credential.idToken) headers.set('authorization', `Bearer ${credential.idToken}`);
    else if (credential.apiKey) headers.set('x-api-key', credential.apiKey);
    // The same on every retry of one call, so the server can recognise a repeat.
    if (idempotencyKey) headers.set('idempotency-key', idempotencyKey);
    for (const extra of [this.defaultHeaders, options.headers ?? {}]) {
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    }
    return headers;
  }

  /**
   * One attempt within the per-attempt timeout, body included; except a download's body, which is
   * left unread for the caller (still stopped by the caller's signal).
   */
  private async exchange(url: string, init: RequestInit, options: RequestOptions, answer: Answer) {
    const timeout = options.timeout ?? this.timeout;
    const timer = new AbortController();
    const timeoutId = setTimeout(() => timer.abort(), timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    const fetchImpl = this.fetchImpl ?? fetch;
    try {
      const response = await fetchImpl(url, { ...init, signal });
      const text = response.ok && answer === 'stream' ? '' : await response.text();
      return { response, text };
    } catch (error) {
      if (options.signal?.aborted) throw new APIUserAbortError();
      if (timer.signal.aborted) throw new APIConnectionTimeoutError(timeout);
      throw new APIConnectionError(connectionFailure(url, error), { cause: error });
    } finally {
      clearTimeout(timeoutId);
    }
  }
}

/**
 * A download's body, whose failures are the SDK's errors like any call's: `APIUserAbortError` when
 * the caller's signal stops it, `APIConnectionError` when the connection breaks off.
 */
function downloadStream(url: string, response: Response, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const reader = response.body?.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) return controller.close();
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (signal?.aborted) throw new APIUserAbortError();
        const reason = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        throw new APIConnectionError(
          `The download from ${new URL(url).origin} broke off: ${reason instanceof Error ? reason.message : String(reason)}`,
          { cause: error },
        );
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}
