import { statfs } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ServerConfig } from '../config/config.js';
import {
  collectProcessMetrics,
  registry,
  requestSeconds,
  setScrapeSources,
} from '../metrics/service-metrics.js';
import type { ReferenceData } from '../reference-data/reference-data.js';
import type { DatabaseHandle } from '../storage/database.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where this process answers `GET /metrics` (SCRUB_METRICS_PORT); null when metrics are off. */
    metricsUrl: string | null;
  }
}

/**
 * Prometheus metrics, when SCRUB_METRICS_PORT is set (docs/operations.md, Monitoring): every
 * answer's time by route template, the scrape-time gauges' sources, and `GET /metrics` on its own
 * port, off the public one. Off, nothing is timed and nothing listens.
 */
export function setUpMetrics(
  app: FastifyInstance,
  config: ServerConfig,
  database: DatabaseHandle,
  referenceData: ReferenceData,
): void {
  const settings = config.metrics;
  app.decorate('metricsUrl', null);
  if (!settings) return;
  collectProcessMetrics();
  app.addHook('onResponse', async (request, reply) => {
    requestSeconds.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  });
  const giveBack = setScrapeSources({
    jobsByState: () => jobsByState(database),
    oldestQueuedSeconds: () => oldestQueuedSeconds(database),
    dncListAges: () =>
      referenceData
        .listDates()
        .map((date) => ({ list: date.list, days: date.age_days ?? -1, stale: date.stale })),
    pool: () => database.poolUse(),
    disk: () => dataDirDisk(config),
  });
  let server: Server | null = null;
  // Once the app is built: a start that fails leaves nothing listening.
  app.addHook('onReady', async () => {
    const host = settings.host ?? config.host;
    server = await listen(settings.port, host);
    const { port } = server.address() as AddressInfo;
    app.metricsUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/metrics`;
  });
  app.addHook('onClose', async () => {
    giveBack();
    if (!server) return;
    const closing = server;
    closing.closeAllConnections();
    await new Promise((resolve) => closing.close(resolve));
  });
}

/** `GET /metrics` in Prometheus's text format; anything else 404. */
function listen(port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The file system the embedded database or the local file store writes to. */
async function dataDirDisk(
  config: ServerConfig,
): Promise<{ availableBytes: number; sizeBytes: number } | null> {
  const dir = config.blobStore.kind === 'local' ? config.blobStore.dir : config.dataDir;
  if (config.blobStore.kind !== 'local' && config.database.kind !== 'pglite') return null;
  try {
    const fs = await statfs(dir);
    return { availableBytes: fs.bavail * fs.bsize, sizeBytes: fs.blocks * fs.bsize };
  } catch {
    return null;
  }
}

async function jobsByState({ db }: DatabaseHandle): Promise<{ status: string; jobs: number }[]> {
  return db
    .selectFrom('bulk_jobs')
    .select(['status', sql<number>`count(*)::int8`.as('jobs')])
    .groupBy('status')
    .execute();
}

async function oldestQueuedSeconds({ db }: DatabaseHandle): Promise<number> {
  const row = await db
    .selectFrom('bulk_jobs')
    .select(sql<Date | null>`min(coalesce(submitted_at, created_at))`.as('oldest'))
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return row?.oldest ? Math.max(0, (Date.now() - row.oldest.getTime()) / 1000) : 0;
}
