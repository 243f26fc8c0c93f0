// POST /verify (batches of 10,000 numbers) beside GET /verify one number at a time, in one run,
// and the credits it took.
//
//   pnpm --filter @scrub/server bench          (after `pnpm build`)
//   node bench/verify-batch.ts [batches]        (default 20)
//
// Target (issue 16): at least 1,000,000 numbers per second per request on the server side: a
// request of 10,000 new numbers handed to the server in process (no socket), parsed, checked,
// charged and answered; and the process's CPU time per such request (what the request costs,
// less at the mercy of other work on the machine than the clock); the same with an Idempotency-Key,
// as the SDK sends (the answer is also stored for a replay). Also printed: the same over loopback from the client, and single checks
// for the ratio, and the bare loop: the engine's answers alone. Each batch holds distinct valid numbers never checked before, so none comes from
// the cache, and afterwards the account must have lost exactly one credit per number.

import { readdirSync, readFileSync } from 'node:fs';
import { CallingClock, callingWindowOf, checkPhone, DncSet, sampleExchangeTable } from '@scrub/engine';
import { ledgerTotals } from '@scrub/server';
import { benchAccount, startBenchServer } from './bench-server.ts';

const BATCHES = Number(process.argv[2] ?? 20);
const BATCH = 10_000;
const SINGLES = 2_000;
const CREDITS = 50_000_000;
const TARGET = 1_000_000;

const server = await startBenchServer();
const db = server.database.db;
const { profileId, apiKey } = await benchAccount(server, {
  sub: 'bench',
  email: 'bench@example.com',
  credits: CREDITS,
});

// Distinct valid numbers in the 201 area code: no repeat, no cache hit. Exchanges that are never
// valid (N11, 555, 950, 958, 959) are left out, so that every number costs a credit.
const EXCHANGES = Array.from({ length: 800 }, (_, i) => 200 + i).filter(
  (nxx) => nxx % 100 !== 11 && ![555, 950, 958, 959].includes(nxx),
);
let next = 0;
const nextNumber = () => {
  const n = next++;
  return `201${EXCHANGES[Math.floor(n / 10_000) % EXCHANGES.length]}${String(n % 10_000).padStart(4, '0')}`;
};

/** CPU time the process spent on each batch handed in: less at the mercy of other work on the machine than the clock. */
const serverCpuMs: number[] = [];

/**
 * This process's CPU time (all threads) and its children's (the embedded database's own process
 * with SCRUB_EMBEDDED_DATABASE=process, from /proc on Linux, in clock ticks of 10 ms), in ms.
 */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  if (process.platform === 'linux') {
    for (const tid of readdirSync('/proc/self/task')) {
      for (const pid of readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean)) {
        // utime and stime, fields 14 and 15, after the command's closing parenthesis.
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        children += (Number(fields[11]) + Number(fields[12])) * 10;
      }
    }
  }
  return (own.user + own.system) / 1000 + children;
}

/** Server side: the request handed to the server in process (Fastify's inject: no socket), parsed, checked, charged and its answer serialised. */
async function injectBatch(
  cpuTimes = serverCpuMs,
  idempotencyKey?: string,
  accept?: string,
): Promise<number> {
  const payload = JSON.stringify({ phones: Array.from({ length: BATCH }, nextNumber) });
  const cpu = cpuMs();
  const started = performance.now();
  const response = await server.app.inject({
    method: 'POST',
    url: '/verify',
    headers: {
      'x-api-key': apiKey,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...(accept ? { accept } : {}),
    },
    payload,
  });
  const elapsed = performance.now() - started;
  cpuTimes.push(cpuMs() - cpu);
  if (response.statusCode !== 200)
    throw new Error(`batch failed: ${response.statusCode} ${response.body.slice(0, 200)}`);
  return elapsed;
}

async function postBatch(): Promise<number> {
  const phones = Array.from({ length: BATCH }, nextNumber);
  const started = performance.now();
  const response = await fetch(`${server.url}/verify`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ phones }),
  });
  const body = (await response.json()) as { results?: unknown[] };
  if (response.status !== 200 || body.results?.length !== BATCH)
    throw new Error(`batch failed: ${response.status}`);
  return performance.now() - started;
}

/**
 * The bare loop: the engine's answers for a batch (parse, classify, DNC lookup, calling window),
 * what the handler computes per number, without HTTP, validation, charging or JSON.
 */
function bareLoop(): number {
  const exchange = sampleExchangeTable();
  const dnc = { set: new DncSet() };
  const phones = Array.from(
    { length: BATCH },
    (_, i) => `201${200 + (i % 800)}${String(i).padStart(4, '0')}`,
  );
  const times: number[] = [];
  for (let round = 0; round < 10; round++) {
    const started = performance.now();
    const clock = new CallingClock();
    let callable = 0;
    for (const phone of phones) {
      const check = checkPhone(phone, exchange, dnc);
      if (callingWindowOf(check.e164, check.lineType, clock).callableNow) callable++;
    }
    times.push(performance.now() - started);
    if (callable < 0) throw new Error('unreachable');
  }
  return times.sort((a, b) => a - b)[5]!;
}
const bareMs = bareLoop();

console.log(`${BATCHES} batches of ${BATCH.toLocaleString('en-US')} numbers, Node ${process.version}`);
for (let i = 0; i < 3; i++) await injectBatch(); // warm up: JIT, the first transactions
serverCpuMs.length = 0;
const serverMs: number[] = [];
for (let i = 0; i < BATCHES; i++) serverMs.push(await injectBatch());
// As the SDK sends them: with an Idempotency-Key, so the answer is also kept for a replay.
const keyedCpuMs: number[] = [];
const keyedMs: number[] = [];
for (let i = 0; i < Math.ceil(BATCHES / 2); i++)
  keyedMs.push(await injectBatch(keyedCpuMs, crypto.randomUUID()));
// The lean answer (issue 29): the same batch answered as CSV, the credits in headers.
const csvCpuMs: number[] = [];
for (let i = 0; i < Math.ceil(BATCHES / 2); i++) await injectBatch(csvCpuMs, undefined, 'text/csv');
const clientMs: number[] = [];
for (let i = 0; i < Math.ceil(BATCHES / 4); i++) clientMs.push(await postBatch());

const singlesStarted = performance.now();
const statuses = new Map<number, number>();
for (let i = 0; i < SINGLES; i += 64) {
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      const response = await fetch(`${server.url}/verify?p=${nextNumber()}&k=${apiKey}`);
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }),
  );
}
const singlesPerSecond = (Math.ceil(SINGLES / 64) * 64) / ((performance.now() - singlesStarted) / 1000);
if (statuses.size !== 1 || !statuses.has(200))
  console.log('single checks answered', Object.fromEntries(statuses));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const serverRate = BATCH / (median(serverMs) / 1000);
const clientRate = BATCH / (median(clientMs) / 1000);
console.table({
  'bare loop (engine answers only)': {
    'numbers/s': Math.round(BATCH / (bareMs / 1000)),
    'median ms per batch': bareMs.toFixed(1),
  },
  'POST /verify, server side': {
    'numbers/s': Math.round(serverRate),
    'median ms per batch': median(serverMs).toFixed(1),
  },
  'POST /verify, server side, CPU time': {
    'numbers/s': Math.round(BATCH / (median(serverCpuMs) / 1000)),
    'median ms per batch': median(serverCpuMs).toFixed(1),
  },
  'POST /verify with an Idempotency-Key, server side': {
    'numbers/s': Math.round(BATCH / (median(keyedMs) / 1000)),
    'median ms per batch': median(keyedMs).toFixed(1),
  },
  'POST /verify with an Idempotency-Key, CPU time': {
    'numbers/s': Math.round(BATCH / (median(keyedCpuMs) / 1000)),
    'median ms per batch': median(keyedCpuMs).toFixed(1),
  },
  'POST /verify, Accept: text/csv, CPU time': {
    'numbers/s': Math.round(BATCH / (median(csvCpuMs) / 1000)),
    'median ms per batch': median(csvCpuMs).toFixed(1),
  },
  'POST /verify, client side': {
    'numbers/s': Math.round(clientRate),
    'median ms per batch': median(clientMs).toFixed(1),
  },
  'GET /verify, 64 at a time': { 'numbers/s': Math.round(singlesPerSecond), 'median ms per batch': '-' },
});
console.log(
  `batch: ${Math.round(serverRate).toLocaleString('en-US')} numbers/s per request on the server side (target at least ${TARGET.toLocaleString('en-US')}: ${serverRate >= TARGET ? 'met' : 'NOT MET'}), ${(serverRate / singlesPerSecond).toFixed(0)}x single checks`,
);

const totals = await ledgerTotals(db, profileId);
const charged = CREDITS - totals.balance;
const exact = charged === next && totals.sum === totals.balance;
console.log(
  `credits taken: ${charged.toLocaleString('en-US')} for ${next.toLocaleString('en-US')} numbers checked: ${exact ? 'exact' : 'NOT EXACT'}`,
);
if (!exact) process.exitCode = 1;
await server.close();
