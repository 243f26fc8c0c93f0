import { type ClientConfig, type Health, pathFor, type RouteSpec, routes } from '@scrub/contract';
import { isRetryableStatus, retryDelayMs } from './core/retry.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ScrubError,
} from './errors.js';
import { Plans } from './resources/plans.js';
import { VERSION } from './version.js';

export interface ClientOptions {
  /** Defaults to `SCRUB_API_URL`, then `http://localhost:8787`. */
  baseURL?: string;
  /** Defaults to `SCRUB_API_KEY`. Sent as the `x-api-key` header. */
  apiKey?: string;
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

/** What one call sends: the route's `{placeholders}`, the query string and the JSON body. */
export interface RequestInput {
  params?: Record<string, string | number>;
  /** Undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** Browsers have no `process`, and some bundlers provide one without `env`. */
function readEnv(name: string): string | undefined {
  return globalThis.process?.env?.[name]?.trim() || undefined;
}

/** Node's fetch only says "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is in its cause. */
function connectionFailure(url: string, error: unknown): string {
  const reason = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return `Could not reach ${new URL(url).origin}: ${reason instanceof Error ? reason.message : String(reason)}`;
}

function parseErrorBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class Scrub {
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly maxRetries: number;
  readonly timeout: number;
  private readonly defaultHeaders: Record<string, string>;
  private readonly fetchImpl: typeof fetch | undefined;

  readonly plans: Plans = new Plans(this);

  constructor(options: ClientOptions = {}) {
    this.baseURL = (options.baseURL ?? readEnv('SCRUB_API_URL') ?? 'http://localhost:8787').replace(
      /\/+$/,
      '',
    );
    this.apiKey = options.apiKey ?? readEnv('SCRUB_API_KEY');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeout = options.timeout ?? 60_000;
    this.defaultHeaders = options.defaultHeaders ?? {};
    this.fetchImpl = options.fetch;
  }

  /** Service status, version and which reference data answers. Public. */
  health(options?: RequestOptions): Promise<Health> {
    return this.request<Health>(routes.health, options);
  }

  /** What clients need to know about this deployment: identity pool, payment provider, limits. Public. */
  config(options?: RequestOptions): Promise<ClientConfig> {
    return this.request<ClientConfig>(routes.config, options);
  }

  /**
   * Calls one route of the contract, retrying what may pass on a second try. Resources are built
   * on it; it is public so a route the SDK does not wrap yet can still be called.
   */
  async request<T>(route: RouteSpec, options: RequestInput & RequestOptions = {}): Promise<T> {
    const url = this.buildURL(route, options);
    const init: RequestInit = {
      method: route.method,
      headers: this.buildHeaders(route, options),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    };
    const maxRetries = options.maxRetries ?? this.maxRetries;

    for (let retriesDone = 0; ; retriesDone++) {
      const canRetry = retriesDone < maxRetries;
      let exchange: { response: Response; text: string };
      try {
        exchange = await this.exchange(url, init, options);
      } catch (error) {
        if (!canRetry || !(error instanceof APIConnectionError)) throw error;
        await this.sleep(retryDelayMs(retriesDone), options.signal);
        continue;
      }

      const { response, text } = exchange;
      if (response.ok) {
        try {
          return JSON.parse(text) as T;
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

  private buildURL(route: RouteSpec, { params, query }: RequestInput): string {
    const url = new URL(this.baseURL + pathFor(route.path, params));
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private buildHeaders(route: RouteSpec, options: RequestInput & RequestOptions): Headers {
    const headers = new Headers({ accept: 'application/json', 'x-scrub-client': `sdk/${VERSION}` });
    if (options.body !== undefined) headers.set('content-type', 'application/json');
    if (this.apiKey) headers.set('x-api-key', this.apiKey);
    // Made once per call, so every retry carries the same key and the server can ignore repeats.
    if (route.method !== 'GET') headers.set('idempotency-key', crypto.randomUUID());
    for (const extra of [this.defaultHeaders, options.headers ?? {}]) {
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    }
    return headers;
  }

  /** One attempt, body included, within the per-attempt timeout. */
  private async exchange(url: string, init: RequestInit, options: RequestOptions) {
    const timeout = options.timeout ?? this.timeout;
    const timeoutSignal = AbortSignal.timeout(timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timeoutSignal]) : timeoutSignal;
    const fetchImpl = this.fetchImpl ?? fetch;
    try {
      const response = await fetchImpl(url, { ...init, signal });
      return { response, text: await response.text() };
    } catch (error) {
      if (options.signal?.aborted) throw new APIUserAbortError();
      if (timeoutSignal.aborted) throw new APIConnectionTimeoutError(timeout);
      throw new APIConnectionError(connectionFailure(url, error), { cause: error });
    }
  }
}
