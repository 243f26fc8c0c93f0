import type { Logger } from 'pino';
import type { JobSignals } from '../bulk/job-signals.js';
import type { WebhookSettings } from '../config/config.js';
import type { DatabaseHandle } from '../storage/database.js';
import type { Tracer } from '../tracing/spans.js';
import { WebhookDeliverer } from './deliverer.js';

export interface WebhookServices {
  deliverer: WebhookDeliverer;
  settings: WebhookSettings;
  close(): Promise<void>;
}

/**
 * The deliverer, running where the bulk worker runs (`runDeliverer`), woken whenever a job ends in
 * any process. Elsewhere it only makes the test event's attempt.
 */
export function setUpWebhooks({
  database,
  settings,
  logger,
  signals,
  runDeliverer,
  tracer = null,
}: {
  database: DatabaseHandle;
  settings: WebhookSettings;
  logger: Logger | false;
  signals: JobSignals;
  runDeliverer: boolean;
  /** Starts each delivery attempt's span when tracing is on. */
  tracer?: Tracer | null;
}): WebhookServices {
  const deliverer = new WebhookDeliverer({
    db: database.db,
    logger,
    allowLocal: settings.allowLocal,
    retryBaseMs: settings.retryBaseMs,
    pollMs: Math.min(5000, settings.retryBaseMs),
    tracer,
  });
  let unsubscribe = () => {};
  if (runDeliverer) {
    unsubscribe = signals.onEnded(() => deliverer.notify());
    deliverer.start();
  }
  return {
    deliverer,
    settings,
    async close() {
      unsubscribe();
      await deliverer.stop();
    },
  };
}
