// GET /verify with Prometheus metrics on (SCRUB_METRICS_PORT) against off, side by side in one run.
//
//   node bench/verify-metrics.ts [requests] [rounds] [connections]   (after `pnpm build`; default 20,000, 5, 64)
//
// Target (issue 28, goal 1): metrics cost under 5% of /verify's requests per second. Two servers
// in this process, each on its own embedded database (or on DATABASE_URL's PostgreSQL, each its own
// account), answer alternate runs (off, on, off, on...), so a machine busy with other work slows
// both alike; the median of each side's runs is compared. The "on" server is scraped after each
// of its runs, as Prometheus would every 15 s.

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

const off = await startBenchServer();
const on = await startBenchServer({ SCRUB_METRICS_PORT: '0' });
const offKey = (await benchAccount(off, { sub: 'off', email: 'off@example.com', credits: 50_000_000 }))
  .apiKey;
const onKey = (await benchAccount(on, { sub: 'on', email: 'on@example.com', credits: 50_000_000 })).apiKey;

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

const runs: { off: number[]; on: number[] } = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  runs.off.push(await rate(off.url, () => `/verify?p=${nextNumber()}&k=${offKey}`, REQUESTS));
  runs.on.push(await rate(on.url, () => `/verify?p=${nextNumber()}&k=${onKey}`, REQUESTS));
  const scrape = await fetch(on.app.metricsUrl!);
  if (!scrape.ok) throw new Error(`the scrape answered ${scrape.status}`);
  await scrape.text();
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
console.table({
  'metrics off': { 'median req/s': Math.round(median(runs.off)), runs: runs.off.map(Math.round).join(' ') },
  'metrics on': { 'median req/s': Math.round(median(runs.on)), runs: runs.on.map(Math.round).join(' ') },
});
const cost = 1 - median(runs.on) / median(runs.off);
console.log(`metrics cost: ${(cost * 100).toFixed(1)}% of /verify's requests per second (target under 5%)`);

await on.close();
await off.close();
