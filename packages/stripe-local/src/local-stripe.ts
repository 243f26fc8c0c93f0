import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { FormError, parseForm } from './form-body.js';
import { FormParams } from './form-params.js';
import type { HostDatabase } from './host-database.js';
import { billingOperations as billing, renewDue } from './local-stripe-billing.js';
import { type Caller, type Operation, OperationContext } from './local-stripe-context.js';
import { customerOperations as customers } from './local-stripe-customers.js';
import { authenticate, CommittedError, intentOperations as intents } from './local-stripe-intents.js';
import { invoicePaymentOperations as invoicePayments } from './local-stripe-invoice-payments.js';
import { listOf, pageOf } from './local-stripe-list.js';
import { refundOperations as refunds } from './local-stripe-refunds.js';
import {
  type LocalStripeDb,
  objectStore,
  type StripeObject,
  withLocalStripeTables,
} from './local-stripe-store.js';
import { invalidRequest, LocalStripeError, type StripeErrorBody } from './stripe-error.js';
import { signWebhook } from './webhook-signature.js';

// Over 500 lines, kept whole: the LocalStripe class is the one request pipeline of the built-in
// provider (API keys, the route table, idempotency, one transaction per operation, expansion) and
// the webhook deliveries of the events it records; they share its database, timer and state.

/** The API version this provider answers as: the one `stripe` 23.x sends. */
export const LOCAL_API_VERSION = '2026-10-28.endive';

const listEvents: Operation = async (ctx, params) => {
  const types = [...params.strings('types'), ...(params.string('type') ? [params.string('type')!] : [])];
  const page = await objectStore.list(ctx.db, 'event', types.length ? { types } : {}, pageOf(params));
  return listOf('/v1/events', page);
};
const retrieveEvent: Operation = async (ctx, _params, [id]) => (await ctx.find('event', id!)).data;

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** As written here: `customers/:id`. */
  path: string;
  pattern: RegExp;
  run: Operation;
  /** Callable from a browser with the publishable key (Stripe.js's calls). */
  publishable?: true;
}

const route = (method: Route['method'], path: string, run: Operation, publishable?: true): Route => ({
  method,
  path,
  pattern: new RegExp(`^${path.replaceAll(':id', '([^/]+)')}$`),
  run,
  ...(publishable ? { publishable } : {}),
});

/** The subset of Stripe's API the product uses; docs/payments.md lists it. */
export const ROUTES: readonly Route[] = [
  route('POST', 'customers', customers.createCustomer),
  route('GET', 'customers', customers.listCustomers),
  route('GET', 'customers/search', customers.searchCustomers),
  route('GET', 'customers/:id', customers.retrieveCustomer),
  route('POST', 'customers/:id', customers.updateCustomer),
  route('DELETE', 'customers/:id', customers.deleteCustomer),
  route('GET', 'customers/:id/payment_methods', customers.listPaymentMethods),
  route('POST', 'payment_methods', customers.createPaymentMethod, true),
  route('GET', 'payment_methods', customers.listPaymentMethods),
  route('GET', 'payment_methods/:id', customers.retrievePaymentMethod),
  route('POST', 'payment_methods/:id', customers.updatePaymentMethod),
  route('POST', 'payment_methods/:id/attach', customers.attachPaymentMethod),
  route('POST', 'payment_methods/:id/detach', customers.detachPaymentMethod),
  route('POST', 'tokens', customers.createToken, true),
  route('POST', 'setup_intents', intents.createSetupIntent),
  route('GET', 'setup_intents/:id', intents.retrieveSetupIntent, true),
  route('POST', 'setup_intents/:id/confirm', intents.confirmSetupIntent, true),
  route('POST', 'payment_intents', intents.createPaymentIntent),
  route('GET', 'payment_intents', intents.listPaymentIntents),
  route('GET', 'payment_intents/:id', intents.retrievePaymentIntent, true),
  route('POST', 'payment_intents/:id/confirm', intents.confirmPaymentIntent, true),
  route('POST', 'payment_intents/:id/cancel', intents.cancelPaymentIntent),
  route('GET', 'charges/:id', intents.retrieveCharge),
  route('POST', 'refunds', refunds.createRefund),
  route('GET', 'refunds', refunds.listRefunds),
  route('GET', 'refunds/:id', refunds.retrieveRefund),
  route('POST', 'products', billing.createProduct),
  route('GET', 'products/:id', billing.retrieveProduct),
  route('POST', 'prices', billing.createPrice),
  route('GET', 'prices', billing.listPrices),
  route('GET', 'prices/:id', billing.retrievePrice),
  route('POST', 'subscriptions', billing.createSubscription),
  route('GET', 'subscriptions', billing.listSubscriptions),
  route('GET', 'subscriptions/:id', billing.retrieveSubscription),
  route('POST', 'subscriptions/:id', billing.updateSubscription),
  route('DELETE', 'subscriptions/:id', billing.cancelSubscription),
  route('GET', 'invoices', billing.listInvoices),
  route('GET', 'invoices/:id', billing.retrieveInvoice),
  route('GET', 'invoice_payments', invoicePayments.listInvoicePayments),
  route('GET', 'events', listEvents),
  route('GET', 'events/:id', retrieveEvent),
  route('POST', 'test_helpers/test_clocks', billing.createTestClock),
  route('GET', 'test_helpers/test_clocks/:id', billing.retrieveTestClock),
  route('POST', 'test_helpers/test_clocks/:id/advance', billing.advanceTestClock),
];

export interface LocalStripeRequest {
  method: string;
  /** The path after `/v1/` as sent, still percent-encoded: `customers/cus_123`. */
  path: string;
  query: string;
  /** The form-encoded body, as sent. */
  body: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

export interface LocalStripeResponse {
  status: number;
  body: object;
  headers: Record<string, string>;
}

export interface LocalStripeOptions {
  /** A database with this package's tables (`createLocalStripeTables`); the caller opens and closes it. */
  db: HostDatabase;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /**
   * Where events are posted, signed; null keeps them for `GET /v1/events` only. A function when it
   * depends on the listening port (the service's own webhook route).
   */
  webhookUrl: string | null | (() => string);
  /**
   * Where clients reach the provider, its prefix included (`http://localhost:3000/_stripe`): the
   * stand-in Stripe.js calls it, and 3-D Secure cards send customers to its authentication page.
   */
  publicUrl: () => string;
  logger?: FastifyBaseLogger | false;
  /** How often due webhooks are retried and due subscriptions renewed (0: only when asked). */
  pollMs?: number;
}

/** Fields Stripe shows only when expanded (`expand[]=latest_invoice.confirmation_secret`), kept in `internal`. */
const INCLUDABLE: Record<string, string[]> = { invoice: ['confirmation_secret'] };

/**
 * An id from the request's path, decoded once (the path is given as sent, still encoded). A stray
 * `%` is no encoding: the id is taken as written, and found or not like any other.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Stripe's request ids look like `req_...`; the SDK shows them in errors. */
const requestId = () => `req_${randomBytes(10).toString('hex')}`;

/**
 * The built-in payment provider: Stripe's REST API (the product's subset) over the service's
 * database, with idempotency keys, events and signed webhook deliveries as Stripe has them.
 * Transport-free: `local-stripe-routes.ts` serves it over HTTP.
 */
export class LocalStripe {
  readonly db: LocalStripeDb;
  #timer: NodeJS.Timeout | null = null;
  #delivering: Promise<void> | null = null;
  #closed = false;

  constructor(readonly options: LocalStripeOptions) {
    this.db = withLocalStripeTables(options.db);
    const pollMs = options.pollMs ?? 5_000;
    if (pollMs > 0) {
      this.#timer = setInterval(() => void this.tick(), pollMs);
      this.#timer.unref();
    }
  }

  get publishableKey() {
    return this.options.publishableKey;
  }

  async handle(request: LocalStripeRequest): Promise<LocalStripeResponse> {
    const id = requestId();
    const headers: Record<string, string> = {
      'request-id': id,
      'stripe-version': request.stripeVersion ?? LOCAL_API_VERSION,
    };
    const answer = (status: number, body: object): LocalStripeResponse => ({ status, body, headers });
    const fail = (error: LocalStripeError) =>
      answer(error.status, { error: { ...error.body, request_log_url: null } });
    try {
      const caller = this.callerOf(request.authorization);
      const method = request.method.toUpperCase();
      const found = this.routeOf(method, request.path);
      if (caller === 'publishable' && !found.route.publishable) {
        throw new LocalStripeError(401, {
          type: 'invalid_request_error',
          message: 'This API call cannot be made with a publishable API key. Please use a secret API key.',
        });
      }
      let params: FormParams;
      try {
        params = new FormParams(
          parseForm(method === 'GET' || method === 'DELETE' ? request.query : request.body),
        );
      } catch (error) {
        if (error instanceof FormError) throw invalidRequest(error.message, error.param);
        throw error;
      }
      const run = async () => {
        const ran = await this.run(caller, id, request, found.route.run, params, found.args);
        return ran instanceof LocalStripeError ? fail(ran) : answer(200, ran);
      };
      const key = method === 'POST' ? request.idempotencyKey?.trim() : undefined;
      if (!key) return await run();
      return await this.idempotent(
        `${caller}:${key}`,
        key,
        `${method} ${request.path}\n${canonical(request.body)}`,
        run,
        headers,
      );
    } catch (error) {
      if (error instanceof LocalStripeError) return fail(error);
      this.log()?.error({ err: error }, 'built-in payment provider failure');
      return answer(500, {
        error: {
          type: 'api_error',
          message: `An error occurred with our connection to Stripe. Request ${id}.`,
        },
      });
    }
  }

  private callerOf(authorization: string | undefined): Caller {
    const key =
      /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const given = key && !key.includes('_') ? Buffer.from(key, 'base64').toString().replace(/:$/, '') : key;
    if (given === this.options.secretKey) return 'secret';
    if (given === this.options.publishableKey) return 'publishable';
    throw new LocalStripeError(401, {
      type: 'invalid_request_error',
      message: given
        ? `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    });
  }

  private routeOf(method: string, path: string): { route: Route; args: string[] } {
    let pathMatched = false;
    for (const candidate of ROUTES) {
      const match = candidate.pattern.exec(path);
      if (!match) continue;
      pathMatched = true;
      if (candidate.method === method) return { route: candidate, args: match.slice(1).map(decodeSegment) };
    }
    throw new LocalStripeError(404, {
      type: 'invalid_request_error',
      message: pathMatched
        ? `Unrecognized request URL (${method}: /v1/${path}).`
        : `Unrecognized request URL (${method}: /v1/${path}). The built-in payment provider serves the part of Stripe's API that Scrub uses; see docs/payments.md.`,
    });
  }

  /**
   * Runs one operation in one transaction, with the events it emitted. A refusal that Stripe
   * records (a declined attempt) commits and is answered; any other error rolls everything back.
   */
  private async run(
    caller: Caller,
    id: string,
    request: LocalStripeRequest,
    operation: Operation,
    params: FormParams,
    args: string[],
  ): Promise<object | LocalStripeError> {
    const result = await this.db.transaction().execute(async (trx) => {
      const ctx = new OperationContext(
        trx,
        caller,
        id,
        request.idempotencyKey ?? null,
        request.stripeVersion ?? LOCAL_API_VERSION,
        this.options.publicUrl,
      );
      let outcome: object | LocalStripeError;
      try {
        outcome = await operation(ctx, params, args);
        const expand = params.strings('expand');
        if (expand.length) outcome = await this.expand(trx, structuredClone(outcome), expand);
      } catch (error) {
        if (!(error instanceof CommittedError)) throw error;
        outcome = error.error;
      }
      await this.record(trx, ctx.events);
      return { outcome, events: ctx.events.length };
    });
    if (result.events) this.kick();
    return result.outcome;
  }

  private async record(db: LocalStripeDb, events: StripeObject[]) {
    for (const event of events) {
      await objectStore.put(db, event);
      const url = this.webhookUrl();
      if (url) {
        await db.insertInto('local_stripe_deliveries').values({ event_id: event.id, url }).execute();
      }
    }
  }

  private async expand(db: LocalStripeDb, value: object, paths: string[]): Promise<object> {
    for (const path of paths) await this.expandPath(db, value, path.split('.'));
    return value;
  }

  private async expandPath(db: LocalStripeDb, holder: unknown, path: string[]): Promise<void> {
    if (!holder || typeof holder !== 'object' || path.length === 0) return;
    const record = holder as Record<string, unknown>;
    const [key, ...rest] = path as [string, ...string[]];
    if ((record.object === 'list' || record.object === 'search_result') && key === 'data') {
      for (const item of record.data as unknown[]) await this.expandPath(db, item, rest);
      return;
    }
    // Own fields only: `expand[]=__proto__` or `constructor` names no field of a Stripe object.
    if (!Object.hasOwn(record, key) && !INCLUDABLE[String(record.object)]?.includes(key)) return;
    let child = record[key];
    if (typeof child === 'string') {
      child = (await objectStore.get(db, child))?.data ?? child;
    } else if (child === undefined && INCLUDABLE[String(record.object)]?.includes(key)) {
      child = (await objectStore.get(db, String(record.id)))?.internal[key] ?? null;
    }
    record[key] = child;
    await this.expandPath(db, child, rest);
  }

  /**
   * Stripe's idempotency: the first answer to a key is the answer to every retry with the same
   * request; the same key with another request is refused; a key still being answered is a 409.
   * Answers that Stripe does not keep (409, 5xx) free the key again.
   */
  private async idempotent(
    scopedKey: string,
    key: string,
    fingerprint: string,
    run: () => Promise<LocalStripeResponse>,
    headers: Record<string, string>,
  ): Promise<LocalStripeResponse> {
    await this.db
      .deleteFrom('local_stripe_idempotency')
      .where('key', '=', scopedKey)
      .where('status', 'is', null)
      .where('created_at', '<', new Date(Date.now() - 60_000))
      .execute();
    const claimed = await this.db
      .insertInto('local_stripe_idempotency')
      .values({ key: scopedKey, request: fingerprint, status: null, response: null })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const first = await this.db
        .selectFrom('local_stripe_idempotency')
        .select(['request', 'status', 'response'])
        .where('key', '=', scopedKey)
        .executeTakeFirstOrThrow();
      const refuse = (status: number, body: StripeErrorBody) => ({ status, body: { error: body }, headers });
      if (first.request !== fingerprint) {
        return refuse(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        });
      }
      if (first.status === null) {
        return refuse(409, {
          type: 'idempotency_error',
          code: 'idempotency_key_in_use',
          message: `There is currently another in-progress request using this Stripe API key and idempotency key ('${key}'). Please try again later.`,
        });
      }
      return {
        status: first.status,
        body: first.response as object,
        headers: { ...headers, 'idempotent-replayed': 'true' },
      };
    }
    let response: LocalStripeResponse | null = null;
    try {
      response = await run();
      return response;
    } finally {
      if (response && response.status !== 409 && response.status < 500) {
        await this.db
          .updateTable('local_stripe_idempotency')
          .set({ status: response.status, response: JSON.stringify(response.body) })
          .where('key', '=', scopedKey)
          .execute();
      } else {
        await this.db.deleteFrom('local_stripe_idempotency').where('key', '=', scopedKey).execute();
      }
    }
  }

  /** The customer's answer on the 3-D Secure page. */
  async authenticate(intentId: string, approve: boolean): Promise<StripeObject> {
    const result = await this.db.transaction().execute(async (trx) => {
      const ctx = new OperationContext(
        trx,
        'secret',
        requestId(),
        null,
        LOCAL_API_VERSION,
        this.options.publicUrl,
      );
      const intent = await authenticate(ctx, intentId, approve);
      await this.record(trx, ctx.events);
      return intent;
    });
    this.kick();
    return result;
  }

  /** Renews every subscription (not on a test clock) whose period has ended. */
  async renewDueSubscriptions(): Promise<void> {
    for (const id of await objectStore.due(this.db, Math.floor(Date.now() / 1000))) {
      await this.db.transaction().execute(async (trx) => {
        const ctx = new OperationContext(
          trx,
          'secret',
          requestId(),
          null,
          LOCAL_API_VERSION,
          this.options.publicUrl,
        );
        await renewDue(ctx, id);
        await this.record(trx, ctx.events);
      });
    }
    this.kick();
  }

  private kick() {
    if (!this.webhookUrl() || this.#closed) return;
    void this.deliverWebhooks().catch((error) => this.log()?.warn({ err: error }, 'webhook delivery failed'));
  }

  private webhookUrl(): string | null {
    const { webhookUrl } = this.options;
    return typeof webhookUrl === 'function' ? webhookUrl() : webhookUrl;
  }

  private async tick() {
    try {
      await this.renewDueSubscriptions();
      await this.deliverWebhooks();
    } catch (error) {
      this.log()?.warn({ err: error }, 'built-in payment provider background work failed');
    }
  }

  /**
   * Posts every due event to the webhook endpoint, signed, in order; a failed delivery is retried
   * with backoff (5 s doubling to an hour), as Stripe retries. Claims rows with SKIP LOCKED, so
   * processes sharing a database do not deliver an event twice at once.
   */
  deliverWebhooks(): Promise<void> {
    this.#delivering ??= this.deliverDue().finally(() => {
      this.#delivering = null;
    });
    return this.#delivering;
  }

  private async deliverDue(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const claimed = await this.db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('local_stripe_deliveries as d')
          .innerJoin('local_stripe_objects as o', 'o.id', 'd.event_id')
          .select(['d.event_id', 'd.url', 'd.attempts', 'o.data', 'o.seq'])
          .where('d.delivered_at', 'is', null)
          .where('d.next_attempt_at', '<=', new Date())
          .orderBy('o.seq')
          .limit(20)
          .forUpdate('d')
          .skipLocked()
          .execute();
        if (rows.length) {
          await trx
            .updateTable('local_stripe_deliveries')
            .set({ next_attempt_at: new Date(Date.now() + 30_000) })
            .where(
              'event_id',
              'in',
              rows.map((r) => r.event_id),
            )
            .execute();
        }
        return rows;
      });
      if (claimed.length === 0) return;
      for (const row of claimed) {
        const payload = JSON.stringify(row.data, null, 2);
        let error: string | null = null;
        try {
          const res = await fetch(row.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json; charset=utf-8',
              'stripe-signature': signWebhook(payload, this.options.webhookSecret),
              'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            },
            body: payload,
            signal: AbortSignal.timeout(10_000),
          });
          await res.body?.cancel();
          if (!res.ok) error = `HTTP ${res.status}`;
        } catch (cause) {
          error = cause instanceof Error ? cause.message : String(cause);
        }
        const attempts = row.attempts + 1;
        await this.db
          .updateTable('local_stripe_deliveries')
          .set(
            error
              ? {
                  attempts,
                  last_error: error,
                  next_attempt_at: new Date(Date.now() + Math.min(3_600_000, 5_000 * 2 ** (attempts - 1))),
                }
              : { attempts, delivered_at: new Date(), last_error: null },
          )
          .where('event_id', '=', row.event_id)
          .execute();
        if (error)
          this.log()?.warn({ event: row.event_id, url: row.url, error }, 'webhook not delivered; will retry');
      }
    }
  }

  /** Stops background work; the database belongs to the caller. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#delivering;
  }

  private log() {
    return this.options.logger || null;
  }
}

/** The same request however its fields were ordered: the `stripe` SDK's retries send it byte for byte anyway. */
function canonical(body: string): string {
  return [...new URLSearchParams(body)]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('&');
}
