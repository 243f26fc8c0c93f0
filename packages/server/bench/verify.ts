// GET /verify over loopback beside a bare Fastify route, in one run, and the credits it took.
//
//   pnpm --filter @scrub/server bench          (after `pnpm build`)
//   node bench/verify.ts [requests] [connections] [accounts]   (default 50,000, 64 and 1)
//   DATABASE_URL=postgres://... node bench/verify.ts   (on that PostgreSQL: an empty database)
//
// Target (issue 16, goal 5): /verify answers at least 60% of the bare route's requests per second,
// and afterwards the account has lost exactly one credit per 200 answer. Each /verify request
// checks a different valid number with an API key on the embedded database (PGlite), or on
// PostgreSQL with DATABASE_URL, so every answer is looked up, charged and written to the ledger:
// no answer comes from the cache. With more than one account, the requests take turns among the
// accounts' API keys, and each account must have lost exactly one credit per 200 answer it got.

import { ledgerTotals } from '@scrub/server';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { benchAccount, startBenchServer } from './bench-server.ts';

const REQUESTS = Number(process.argv[2] ?? 50_000);
const CONNECTIONS = Number(process.argv[3] ?? 64);
const ACCOUNTS = Number(process.argv[4] ?? 1);
const CREDITS = 50_000_000;

interface Run {
  rps: number;
  /** The 200 answers for each path prefix (the account's API key). */
  okByKey: Map<string, number>;
  ok: number;
  errors: number;
  p99: number;
}

/** Sends a fixed number of requests, not for a fixed time: every request sent is answered and counted. */
async function load(url: string, path: () => string, amount: number): Promise<Run> {
  const started = performance.now();
  let lastAnswer = started;
  const okByKey = new Map<string, number>();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [
      {
        // One request at a time on a connection: its context names the request being answered.
        setupRequest: (request, context: { path?: string }) => {
          context.path = path();
          return { ...request, path: context.path };
        },
        onResponse: (status, _body, context: { path?: string }) => {
          lastAnswer = performance.now();
          const key = new URL(context.path ?? '', 'http://bench').searchParams.get('k') ?? '';
          if (status === 200) okByKey.set(key, (okByKey.get(key) ?? 0) + 1);
        },
      },
    ],
  });
  return {
    // Timed here, to the last answer: autocannon's own figures are per whole second, and it
    // notices that the last answer came only at its next one-second tick.
    rps: result.requests.total / ((lastAnswer - started) / 1000),
    okByKey,
    ok: result['2xx'],
    errors: result.errors + result.non2xx + result.timeouts,
    p99: result.latency.p99,
  };
}

// The bare route answers a JSON object the size of a /verify answer, with nothing behind it.
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({
  phone_number: '+12012345678',
  line_type: 'mobile',
  dnc: 0,
  cached: false,
  credits_deducted: 1,
  credits_remaining: 41,
}));
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = bare.server.address();
const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}`;

const server = await startBenchServer();
const db = server.database.db;
const accounts: { profileId: string; apiKey: string }[] = [];
for (let i = 0; i < ACCOUNTS; i++) {
  accounts.push(
    await benchAccount(server, { sub: `bench-${i}`, email: `bench${i}@example.com`, credits: CREDITS }),
  );
}

// Distinct valid numbers in the 201 area code, exchanges 200-999: no repeat, no cache hit.
let next = 0;
const nextNumber = () => {
  const n = next++;
  return `201${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}`;
};
const verifyPath = () => `/verify?p=${nextNumber()}&k=${accounts[next % ACCOUNTS]!.apiKey}`;

console.log(
  `${REQUESTS.toLocaleString('en-US')} requests per run, ${CONNECTIONS} connections, ${ACCOUNTS} account(s), Node ${process.version}, ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in memory'}`,
);
// Warm both up: JIT, connection pools, the first transactions.
await load(bareUrl, () => '/bare', REQUESTS / 5);
const warmUp = await load(server.url, verifyPath, REQUESTS / 5);

const bareRun = await load(bareUrl, () => '/bare', REQUESTS);
const verifyRun = await load(server.url, verifyPath, REQUESTS);
const ratio = verifyRun.rps / bareRun.rps;

let charged = 0;
let exact = true;
for (const { profileId, apiKey } of accounts) {
  const totals = await ledgerTotals(db, profileId);
  const taken = CREDITS - totals.balance;
  const answers = (warmUp.okByKey.get(apiKey) ?? 0) + (verifyRun.okByKey.get(apiKey) ?? 0);
  charged += taken;
  exact &&= taken === answers && totals.sum === totals.balance;
}
const answered = warmUp.ok + verifyRun.ok;
console.table({
  'bare Fastify': { 'req/s': Math.round(bareRun.rps), 'p99 ms': bareRun.p99, errors: bareRun.errors },
  'GET /verify': { 'req/s': Math.round(verifyRun.rps), 'p99 ms': verifyRun.p99, errors: verifyRun.errors },
});
console.log(`/verify: ${(ratio * 100).toFixed(1)}% of bare Fastify (target at least 60%)`);
exact &&= charged === answered;
console.log(
  `credits taken: ${charged.toLocaleString('en-US')} for ${answered.toLocaleString('en-US')} checks answered (warm-up included): ${exact ? 'exact' : 'NOT EXACT'}`,
);
if (!exact) process.exitCode = 1;

await server.close();
await bare.close();
