import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { webhookAttempts } from '../metrics/service-metrics.js';
import { PollPause } from '../poll-pause.js';
import type { Database } from '../storage/schema.js';
import { inRootSpan, type Tracer } from '../tracing/spans.js';
import { sendWebhook } from './send-webhook.js';
import { type AttemptOutcome, claimDueDeliveries, type DueDelivery, recordAttempt } from './webhook-store.js';

/** The longest wait between two attempts at one delivery. */
const MAX_RETRY_DELAY_MS = 3_600_000;

/**
 * When to try again after `attempts` failed attempts: `baseMs` doubled each time (30 s, 1 min,
 * 2 min, ... up to an hour), give or take a quarter so that retries to one receiver spread out;
 * never after `giveUpAt`, and null once that has passed (the delivery fails).
 */
export function nextRetryAt(attempts: number, baseMs: number, giveUpAt: Date, now = new Date()): Date | null {
  if (now.getTime() >= giveUpAt.getTime()) return null;
  const delay = Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), MAX_RETRY_DELAY_MS);
  const jittered = delay * (0.75 + Math.random() * 0.5);
  return new Date(Math.min(now.getTime() + jittered, giveUpAt.getTime()));
}

export interface WebhookDelivererOptions {
  db: Kysely<Database>;
  logger: Logger | false;
  /** Whether local and private addresses may be reached (checked again at each connection otherwise). */
  allowLocal: boolean;
  retryBaseMs: number;
  /** How often an idle deliverer looks for due retries. */
  pollMs?: number;
  /** Deliveries taken at once, sent side by side. */
  batch?: number;
  /** How long a taken delivery is out of other processes' reach; more than the 10 s timeout. */
  leaseSeconds?: number;
  /** Starts each attempt's span (`webhook delivery`) when tracing is on. */
  tracer?: Tracer | null;
}

/**
 * Sends the outbox: takes due deliveries, POSTs them, logs each attempt and schedules the next.
 * Woken at once when a job ends (in any process, through the job signals) and otherwise looks
 * every few seconds for retries that have come due. Any number of processes share the work.
 */
export class WebhookDeliverer {
  #stopped = false;
  #loop: Promise<void> | null = null;
  readonly #pause = new PollPause();

  constructor(private readonly options: WebhookDelivererOptions) {}

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Look now rather than at the next poll. */
  notify(): void {
    this.#pause.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.notify();
    await this.#loop;
  }

  /** Makes one attempt at a pending delivery now (the test event's), whether or not the loop runs. */
  async attemptNow(deliveryId: string): Promise<void> {
    const due = await claimDueDeliveries(this.options.db, {
      limit: 1,
      leaseSeconds: this.options.leaseSeconds ?? 60,
      deliveryId,
    });
    await this.#sendAll(due);
  }

  async #run(): Promise<void> {
    const { db, logger, pollMs = 5000, batch = 10, leaseSeconds = 60 } = this.options;
    while (!this.#stopped) {
      let due: DueDelivery[] = [];
      try {
        due = await claimDueDeliveries(db, { limit: batch, leaseSeconds });
      } catch (error) {
        if (logger) logger.error({ err: error }, 'webhook outbox unavailable');
      }
      if (due.length > 0) {
        await this.#sendAll(due);
        continue;
      }
      await this.#pause.wait(pollMs);
    }
  }

  async #sendAll(due: DueDelivery[]): Promise<void> {
    await Promise.all(due.map((delivery) => this.#tracedSend(delivery)));
  }

  /** One attempt, a span of its own (or of the request that asked for it: the test event). */
  #tracedSend(delivery: DueDelivery): Promise<void> {
    const attributes = {
      'scrub.webhook.delivery_id': delivery.id,
      'scrub.webhook.attempt': delivery.attempts + 1,
      'server.address': hostOf(delivery.url),
    };
    return inRootSpan(
      this.options.tracer ?? null,
      'webhook delivery',
      { kind: 'client', attributes },
      (span) =>
        this.#send(delivery, span?.traceparent, (outcome) => {
          span?.setAttributes({
            'scrub.webhook.delivered': outcome.delivered,
            ...(outcome.statusCode !== null && { 'http.response.status_code': outcome.statusCode }),
          });
          if (outcome.delivered) return;
          span?.setAttributes({ 'scrub.webhook.error': outcome.error ?? '' });
          span?.fail(outcome.statusCode === null ? 'no_answer' : String(outcome.statusCode));
        }),
    );
  }

  async #send(
    delivery: DueDelivery,
    traceparent: string | undefined,
    onOutcome: (outcome: AttemptOutcome) => void,
  ): Promise<void> {
    const { db, logger, allowLocal, retryBaseMs } = this.options;
    const outcome: AttemptOutcome = await sendWebhook(delivery, { allowLocal, traceparent });
    onOutcome(outcome);
    const retryAt = outcome.delivered
      ? null
      : nextRetryAt(delivery.attempts + 1, retryBaseMs, delivery.give_up_at, new Date());
    webhookAttempts.inc({ outcome: outcome.delivered ? 'delivered' : retryAt ? 'retrying' : 'failed' });
    try {
      await recordAttempt(db, delivery, outcome, retryAt);
    } catch (error) {
      // The lease runs out and the delivery is tried again: a receiver may see it twice (event ids are stable).
      if (logger) logger.error({ err: error, delivery: delivery.id }, 'webhook attempt not recorded');
    }
    if (logger && !outcome.delivered)
      logger.info(
        { delivery: delivery.id, attempt: delivery.attempts + 1, error: outcome.error, retry_at: retryAt },
        retryAt ? 'webhook not delivered; will retry' : 'webhook delivery failed for good',
      );
  }
}

/** The receiver's host name, never its path or query (which may carry a secret). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
