import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { leadFile } from '../../test/lead-files.js';
import { tempDir } from '../../test/temp-dirs.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import type { Database } from '../storage/schema.js';

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');
// CI builds first (`pnpm test`): there, a missing build fails the shutdown tests rather than skipping them.
if (process.env.CI && !existsSync(bin))
  throw new Error(`the shutdown tests need the built server: ${bin} is missing`);
const postgres = testDatabases().find((database) => database.kind === 'postgres');
/** The 1M-row job's credits, twice over, and the small job's. */
const GRANTED = 3_000_000;
/** The case: a running 1M-row job (seconds of scrubbing, still running when it is looked at). */
const BIG_JOB_ROWS = 1_000_000;

interface Spawned {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** What it logged on stdout, when stdout is ours. */
  logs(): string;
}

/** `scrub-server start`, built, as an operator runs it; resolves once it listens. */
async function startBuilt(env: Record<string, string>, stdout: 'pipe' | Writable = 'pipe'): Promise<Spawned> {
  const child = spawn(process.execPath, [bin, 'start'], {
    env: { ...process.env, SCRUB_PORT: '0', SCRUB_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  let logs = '';
  child.stdout?.on('data', (chunk) => {
    logs += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const at = /Scrub is running at (http:\/\/\S+)/.exec(stderr);
      if (at) resolve(at[1]!);
    });
    void exited.then((code) => reject(new Error(`scrub-server exited ${code} before listening: ${stderr}`)));
  });
  return { child, url, exited, logs: () => logs };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 10) {
    if (waited > 60_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A raw connection: what it received, and when the server closed it. */
function rawConnection(url: string, send: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  socket.write(send);
  return { received: () => received, closed };
}

async function apiCall(
  headers: Record<string, string>,
  base: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { job_id: string } };
}

/** A long poll answered, an idle keep-alive connection closed, a half-sent request cut at the deadline: exit 1. */
async function cutsWhatIsLeftAtTheDeadline(env: Record<string, string>, headers: Record<string, string>) {
  const api = (base: string, method: string, path: string, body?: unknown) =>
    apiCall(headers, base, method, path, body);
  // No worker: the job stays queued, and a client waits on it.
  const server = await startBuilt({
    ...env,
    SCRUB_BULK_WORKER: 'false',
    SCRUB_SHUTDOWN_GRACE_SECONDS: '2',
  });
  const { body: job } = await api(server.url, 'POST', '/bulk/jobs', {
    file_name: 'waiting.csv',
    phone_col: 0,
    header_row: 0,
    csv_content: '2012345678\n',
  });
  let answeredAt = 0;
  const longPoll = fetch(`${server.url}/bulk/jobs/${job.job_id}?wait=20`, { headers }).then(async (res) => {
    answeredAt = performance.now();
    return { status: res.status, body: (await res.json()) as { status: string } };
  });
  const idle = rawConnection(server.url, 'GET /health HTTP/1.1\r\nHost: scrub\r\n\r\n');
  await until(() => idle.received().includes('"status"'), 'the keep-alive answer');
  const halfSent = rawConnection(
    server.url,
    'POST /contact HTTP/1.1\r\nHost: scrub\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"na',
  );
  await until(
    () => server.logs().includes('?wait=20') && server.logs().includes('"url":"/contact"'),
    'both requests to reach the server',
  );
  const idleAnswer = idle.received();

  server.child.kill('SIGTERM');
  // The long poll is answered with the job's progress rather than cut.
  expect(await longPoll).toMatchObject({ status: 200, body: { status: 'queued' } });
  // The idle connection is closed without another word; the half-sent request waits for the deadline, then is cut.
  await idle.closed;
  expect(idle.received()).toBe(idleAnswer);
  const cutAt = await halfSent.closed;
  expect(halfSent.received()).toBe('');
  expect(answeredAt).toBeLessThan(cutAt);
  expect(await server.exited).toBe(1);
  expect(server.logs()).toMatch(/"cut":\["1 connection\(s\) still open"\].*shut down, cutting/);
}

/** Reads the service's database (between servers, for the embedded one: one process at a time). */
type WithDatabase = <T>(read: (db: Kysely<Database>) => Promise<T>) => Promise<T>;

/**
 * A running 1M-row job cut at SIGTERM goes back to the queue and the next server finishes it; a
 * pending webhook retry stays pending; the server's stdout reader went away first. Exit 1, then 0.
 */
async function requeuesTheRunningJob(
  env: Record<string, string>,
  headers: Record<string, string>,
  profileId: string,
  withDatabase: WithDatabase,
) {
  const api = (base: string, method: string, path: string, body?: unknown) =>
    apiCall(headers, base, method, path, body);
  let hooks = 0;
  const receiver = createServer((_req, res) => {
    hooks++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  // Its stdout is read by a process that exits after the first line: every later log line meets a closed pipe.
  const reader = spawn(process.execPath, ['-e', "process.stdin.once('data', () => process.exit(0))"], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const readerExited = new Promise((resolve) => reader.once('exit', resolve));
  const jobs = {
    SCRUB_WEBHOOK_ALLOW_LOCAL: 'true',
    SCRUB_WEBHOOK_RETRY_BASE_SECONDS: '3600',
    // Nothing may finish: the running job is cut the moment the shutdown starts.
    SCRUB_SHUTDOWN_GRACE_SECONDS: '0',
  };
  const first = await startBuilt({ ...env, ...jobs }, reader.stdin!);
  try {
    await readerExited;
    const endpoint = await api(first.url, 'POST', '/webhook-endpoints', {
      url: `http://127.0.0.1:${port}/hook`,
    });
    expect(endpoint.status).toBe(201);
    const endpointId = endpoint.body.id as string;
    const small = await api(first.url, 'POST', '/bulk/jobs', {
      file_name: 'small.csv',
      phone_col: 0,
      header_row: 0,
      csv_content: '2012345678\n2012345679\n',
    });
    const deliveries = async (base: string) =>
      (await api(base, 'GET', `/webhook-endpoints/${endpointId}/deliveries`)).body.deliveries as {
        status: string;
        attempts: number;
      }[];
    await until(async () => (await deliveries(first.url)).some((d) => d.attempts === 1), 'the first attempt');
    expect(hooks).toBeGreaterThan(0);

    const big = await api(first.url, 'POST', '/bulk/jobs', { file_name: 'big.csv', phone_col: 'phone' });
    const upload = await fetch(big.body.upload_url as string, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: leadFile(BIG_JOB_ROWS),
    });
    expect(upload.status).toBe(200);
    expect((await api(first.url, 'POST', `/bulk/jobs/${big.body.job_id}/submit`)).status).toBe(200);
    let status = 'queued';
    await until(async () => {
      status = (await api(first.url, 'GET', `/bulk/jobs/${big.body.job_id}`)).body.status as string;
      return status !== 'queued';
    }, 'the big job to start');
    expect(status, `the job ended before SIGTERM: make BIG_JOB_ROWS (${BIG_JOB_ROWS}) bigger`).toBe(
      'processing',
    );
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(1);
    const left = await withDatabase((db) =>
      db
        .selectFrom('bulk_jobs')
        .select(['status', 'worker_id', 'attempts'])
        .where('id', '=', big.body.job_id)
        .executeTakeFirstOrThrow(),
    );
    expect(left).toEqual({ status: 'queued', worker_id: null, attempts: 1 });

    // The next server on the same database and files takes it from the queue and finishes it.
    const second = await startBuilt(env);
    try {
      let done = await api(second.url, 'GET', `/bulk/jobs/${big.body.job_id}?wait=20`);
      while (done.body.status === 'queued' || done.body.status === 'processing')
        done = await api(second.url, 'GET', `/bulk/jobs/${big.body.job_id}?wait=20`);
      expect(done.body).toMatchObject({ status: 'completed', total_rows: BIG_JOB_ROWS });
      expect((await api(second.url, 'GET', `/bulk/jobs/${small.body.job_id}`)).body.status).toBe('completed');
      // The failed webhook is still waiting for its retry (an hour away), not lost nor failed.
      expect(await deliveries(second.url)).toContainEqual(
        expect.objectContaining({ status: 'pending', attempts: 1 }),
      );
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      second.child.kill('SIGKILL');
    }
    // Every credit accounted for: the ledger holds what was granted less what the jobs kept.
    const { kept, balance } = await withDatabase(async (db) => ({
      kept: await db
        .selectFrom('bulk_jobs')
        .select((eb) => eb.fn.sum<string>(eb('credits_charged', '-', eb.ref('credits_reversed'))).as('kept'))
        .executeTakeFirstOrThrow(),
      balance: (await ledgerTotals(db, profileId)).balance,
    }));
    expect(balance).toBe(GRANTED - Number(kept.kept));
    expect(Number(kept.kept)).toBeGreaterThan(BIG_JOB_ROWS / 2);
  } finally {
    first.child.kill('SIGKILL');
    receiver.close();
  }
}

describe.runIf(existsSync(bin) && postgres)(
  'scrub-server start: SIGTERM with a deadline (built, PostgreSQL)',
  () => {
    let database: DatabaseHandle & { url?: string };
    let headers: Record<string, string>;
    let profileId: string;
    const dataDir = tempDir('scrub-shutdown-');
    const env = () => ({ DATABASE_URL: database.url!, SCRUB_DATA_DIR: dataDir });

    beforeAll(async () => {
      database = await postgres!.open();
      await migrateToLatest(database.db);
      profileId = (
        await ensureProfile(database.db, { sub: 'ops', email: 'ops@example.com', name: null, role: 'User' })
      ).id;
      await applyLedgerEntry(database.db, { profileId, delta: GRANTED, kind: 'grant' });
      headers = { 'x-api-key': (await rotateApiKey(database.db, profileId)).api_key };
    });
    afterAll(() => database?.close());

    it(
      'answers a long poll, closes an idle keep-alive connection, cuts a half-sent request at the deadline, and exits 1',
      () => cutsWhatIsLeftAtTheDeadline(env(), headers),
      90_000,
    );

    it(
      'puts a running job back in the queue for the next server, keeps a pending webhook retry, and survives its stdout reader',
      () => requeuesTheRunningJob(env(), headers, profileId, (read) => read(database.db)),
      120_000,
    );
  },
);

describe.runIf(existsSync(bin))(
  'scrub-server start: SIGTERM with a deadline (built, embedded database)',
  () => {
    const dataDir = tempDir('scrub-shutdown-embedded-');
    let headers: Record<string, string>;
    let profileId = '';
    const withDatabase: WithDatabase = async (read) => {
      const database = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
      try {
        return await read(database.db);
      } finally {
        await database.close();
      }
    };

    beforeAll(async () => {
      // The account is made before the server starts: the embedded database has one process at a time.
      headers = await withDatabase(async (db) => {
        await migrateToLatest(db);
        const { id } = await ensureProfile(db, {
          sub: 'ops',
          email: 'ops@example.com',
          name: null,
          role: 'User',
        });
        profileId = id;
        await applyLedgerEntry(db, { profileId: id, delta: GRANTED, kind: 'grant' });
        return { 'x-api-key': (await rotateApiKey(db, id)).api_key };
      });
    });

    it(
      'answers a long poll, closes an idle keep-alive connection, cuts a half-sent request at the deadline, and exits 1',
      () => cutsWhatIsLeftAtTheDeadline({ SCRUB_DATA_DIR: dataDir }, headers),
      90_000,
    );

    it(
      'puts a running job back in the queue for the next server, keeps a pending webhook retry, and survives its stdout reader',
      () => requeuesTheRunningJob({ SCRUB_DATA_DIR: dataDir }, headers, profileId, withDatabase),
      180_000,
    );
  },
);
