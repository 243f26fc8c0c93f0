// GET /verify with Prometheus metrics on (SCRUB_METRICS_PORT), and with OpenTelemetry tracing on
// (OTLP over HTTP to a collector stand-in this script starts), against both off, side by side in
// one run.
//
//   node bench/verify-metrics.ts [requests] [rounds] [connections]   (after `pnpm build`; default 20,000, 5, 64)
//
// Target (issue 28, goal 1): metrics cost under 5% of /verify's requests per second; tracing's
// cost is measured and reported. Four servers in this process, each on its own embedded database
// (or on DATABASE_URL's PostgreSQL, each its own account), answer alternate runs (off, metrics,
// tracing, both, off, ...), so a machine busy with other work slows them alike; the median of each
// side's runs is compared. The metrics server is scraped after each of its runs, as Prometheus
// would every 15 s. The tracing server sends every span (one per request and one per database
// query, all sampled) in batches to the stand-in, which reads each batch and answers 200 as an
// OpenTelemetry Collector's OTLP/HTTP receiver would.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { benchAccount, startBenchServer } from './bench-server.ts';

const REQUESTS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const CONNECTIONS = Number(process.argv[4] ?? 64);

async function rate(url: string, path: () => string, amount: number): Promise<number> {
  const started = performance.now();
  let last = started;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: path() }),
        onResponse: () => (last = performance.now()),
      },
    ],
  });
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error('a request failed');
  return result.requests.total / ((last - started) / 1000);
}

/** The collector stand-in: counts the OTLP/HTTP export requests and their bytes. */
const received = { batches: 0, bytes: 0 };
const collector = createServer((request, response) => {
  request.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
  request.on('end', () => {
    received.batches++;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

const off = await startBenchServer();
const on = await startBenchServer({ SCRUB_METRICS_PORT: '0' });
const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: 'scrub-bench' };
const traced = await startBenchServer(tracing);
const both = await startBenchServer({ ...tracing, SCRUB_METRICS_PORT: '0' });
const offKey = (await benchAccount(off, { sub: 'off', email: 'off@example.com', credits: 50_000_000 }))
  .apiKey;
const onKey = (await benchAccount(on, { sub: 'on', email: 'on@example.com', credits: 50_000_000 })).apiKey;
const tracedKey = (
  await benchAccount(traced, { sub: 'traced', email: 'traced@example.com', credits: 50_000_000 })
).apiKey;
const bothKey = (await benchAccount(both, { sub: 'both', email: 'both@example.com', credits: 50_000_000 }))
  .apiKey;

// Distinct valid numbers: every answer looked up, charged and written to the ledger, none cached.
let next = 0;
const nextNumber = () => {
  const n = next++;
  return `201${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}`;
};

console.log(
  `${REQUESTS.toLocaleString('en-US')} requests a run, ${ROUNDS} rounds, ${CONNECTIONS} connections, Node ${process.version}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite in memory'}`,
);
await rate(off.url, () => `/verify?p=${nextNumber()}&k=${offKey}`, REQUESTS / 4);
await rate(on.url, () => `/verify?p=${nextNumber()}&k=${onKey}`, REQUESTS / 4);
await rate(traced.url, () => `/verify?p=${nextNumber()}&k=${tracedKey}`, REQUESTS / 4);
await rate(both.url, () => `/verify?p=${nextNumber()}&k=${bothKey}`, REQUESTS / 4);

const runs: Record<'off' | 'on' | 'traced' | 'both', number[]> = { off: [], on: [], traced: [], both: [] };
for (let round = 0; round < ROUNDS; round++) {
  runs.off.push(await rate(off.url, () => `/verify?p=${nextNumber()}&k=${offKey}`, REQUESTS));
  runs.on.push(await rate(on.url, () => `/verify?p=${nextNumber()}&k=${onKey}`, REQUESTS));
  const scrape = await fetch(on.app.metricsUrl!);
  if (!scrape.ok) throw new Error(`the scrape answered ${scrape.status}`);
  await scrape.text();
  runs.traced.push(await rate(traced.url, () => `/verify?p=${nextNumber()}&k=${tracedKey}`, REQUESTS));
  runs.both.push(await rate(both.url, () => `/verify?p=${nextNumber()}&k=${bothKey}`, REQUESTS));
  await (await fetch(both.app.metricsUrl!)).text();
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const row = (values: number[]) => ({
  'median req/s': Math.round(median(values)),
  runs: values.map(Math.round).join(' '),
});
console.table({
  'both off': row(runs.off),
  'metrics on': row(runs.on),
  'tracing on (OTLP)': row(runs.traced),
  'metrics and tracing on': row(runs.both),
});
const cost = (values: number[]) => ((1 - median(values) / median(runs.off)) * 100).toFixed(1);
console.log(`metrics cost: ${cost(runs.on)}% of /verify's requests per second (target under 5%)`);
console.log(`tracing cost: ${cost(runs.traced)}% of /verify's requests per second, every request sampled`);
console.log(`both: ${cost(runs.both)}% of /verify's requests per second`);

await both.close();
await traced.close();
console.log(
  `the collector stand-in received ${received.batches.toLocaleString('en-US')} batches, ${(received.bytes / 1e6).toFixed(1)} MB of OTLP JSON`,
);
collector.close();
await on.close();
await off.close();
