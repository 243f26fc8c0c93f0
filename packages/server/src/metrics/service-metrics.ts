import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { LedgerKind } from '../storage/schema.js';

/**
 * The process's Prometheus metrics (docs/operations.md, Monitoring). One registry a process, as
 * Prometheus scrapes each process on its own: what this process did, counted as it happens (a
 * counter's increment on the hot path), and what the service holds (queue, lists, pool), computed
 * when scraped by the gauges' sources (`setScrapeSources`).
 */
export const registry = new Registry();

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const requestSeconds = new Histogram({
  name: 'scrub_http_request_duration_seconds',
  help: 'Time to answer a request, by method, route template (never the raw URL) and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'scrub_rate_limit_refusals_total',
  help: 'Requests refused with 429, by the limit that refused them (address, key, account).',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export const checksAnswered = new Counter({
  name: 'scrub_checks_total',
  help: 'Single checks answered (GET and POST /verify), by line type and whether the answer was cached.',
  labelNames: ['line_type', 'cached'] as const,
  registers: [registry],
});

export const credits = new Counter({
  name: 'scrub_credits_total',
  help: 'Credits moved by ledger entries this process wrote: charged, given_back, bought, refunded, granted, taken.',
  labelNames: ['movement'] as const,
  registers: [registry],
});

/** The ledger's kinds as an operator reads them; a grant or an adjustment is `granted` or `taken` by its sign. */
const MOVEMENTS: Partial<Record<LedgerKind, string>> = {
  check: 'charged',
  bulk_charge: 'charged',
  reversal: 'given_back',
  purchase: 'bought',
  subscription_grant: 'bought',
  bonus: 'bought',
  refund: 'refunded',
};

/** Counts one ledger entry once written (its transaction's, when it is part of a larger one). */
export function countCredits(kind: LedgerKind, delta: number): void {
  if (delta === 0) return;
  credits.inc({ movement: MOVEMENTS[kind] ?? (delta > 0 ? 'granted' : 'taken') }, Math.abs(delta));
}

export const rowsScrubbed = new Counter({
  name: 'scrub_rows_scrubbed_total',
  help: 'Rows of bulk files scrubbed by this process (rate() gives rows per second).',
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'scrub_webhook_attempts_total',
  help: 'Webhook delivery attempts, by outcome: delivered, retrying, failed (given up).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** What the scrape-time gauges read; set by the app that owns the database (wiring/metrics.ts). */
export interface ScrapeSources {
  jobsByState(): Promise<{ status: string; jobs: number }[]>;
  oldestQueuedSeconds(): Promise<number>;
  dncListAges(): { list: string; days: number; stale: boolean }[];
  pool(): { total: number; idle: number; waiting: number } | null;
  /** The data directory's file system; null when nothing is kept there (PostgreSQL and S3). */
  disk(): Promise<{ availableBytes: number; sizeBytes: number } | null>;
}

/** A scrape's database work is cut short after this long: the gauges keep their last values. */
export const SCRAPE_DEADLINE_MS = 2000;

let sources: ScrapeSources | null = null;

/** Gives the gauges their sources; the returned function takes them back (the app's close). */
export function setScrapeSources(given: ScrapeSources): () => void {
  sources = given;
  return () => {
    if (sources === given) sources = null;
  };
}

function withDeadline<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SCRAPE_DEADLINE_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const JOB_STATES = ['awaiting_upload', 'queued', 'processing', 'completed', 'failed'];

new Gauge({
  name: 'scrub_bulk_jobs',
  help: 'Bulk jobs in the database, by state (the service-wide count: every process answers the same).',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    const rows = sources ? await withDeadline(sources.jobsByState()) : undefined;
    if (!rows) return;
    for (const state of JOB_STATES) this.set({ state }, rows.find((row) => row.status === state)?.jobs ?? 0);
  },
});

new Gauge({
  name: 'scrub_queue_oldest_job_age_seconds',
  help: 'How long the oldest queued bulk job has waited (0 when none waits).',
  registers: [registry],
  async collect() {
    const age = sources ? await withDeadline(sources.oldestQueuedSeconds()) : undefined;
    if (age !== undefined) this.set(age);
  },
});

new Gauge({
  name: 'scrub_dnc_list_age_days',
  help: "Each published do-not-call list's age in days since its release (-1: release date unknown).",
  labelNames: ['list', 'stale'] as const,
  registers: [registry],
  collect() {
    if (!sources) return;
    this.reset();
    for (const { list, days, stale } of sources.dncListAges()) this.set({ list, stale: String(stale) }, days);
  },
});

new Gauge({
  name: 'scrub_db_pool_connections',
  help: "The PostgreSQL pool's connections, by state: total, idle, waiting (clients waiting for one).",
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const pool = sources?.pool();
    if (!pool) return;
    this.set({ state: 'total' }, pool.total);
    this.set({ state: 'idle' }, pool.idle);
    this.set({ state: 'waiting' }, pool.waiting);
  },
});

new Gauge({
  name: 'scrub_data_dir_bytes',
  help: "The data directory's file system (embedded database, local file store): available and size.",
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    const disk = sources ? await withDeadline(sources.disk()) : undefined;
    if (!disk) return;
    this.set({ state: 'available' }, disk.availableBytes);
    this.set({ state: 'size' }, disk.sizeBytes);
  },
});

let defaultsOn = false;

/** Node's own: event loop delay, heap, CPU, open handles (prom-client's default metrics), once a process. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry, prefix: 'scrub_' });
}
