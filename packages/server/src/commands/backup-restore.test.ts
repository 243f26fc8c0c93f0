import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOB_ID_HEADER } from '@scrub/contract';
import { describe, expect, it } from 'vitest';
import { callPool } from '../../test/cognito-client.js';
import { leadFile } from '../../test/lead-files.js';
import { tempDir } from '../../test/temp-dirs.js';
import { openDatabase } from '../storage/database.js';

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');
// CI builds first (`pnpm test`): there, a missing build fails the restore test rather than skipping it.
if (process.env.CI && !existsSync(bin))
  throw new Error(`the restore test needs the built server: ${bin} is missing`);
/** Several credit blocks, small enough for CI; the test holds it part-way, so its size is not what keeps it running. */
const BIG_JOB_ROWS = 20_000;
const PASSWORD = 'Good-Password-1';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `scrub-server <args>` on a data directory, run to its end. */
function serverBin(dataDir: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, SCRUB_DATA_DIR: dataDir, SCRUB_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** `scrub-server start` on a data directory, built, as an operator runs it; resolves with its address once it listens. */
async function startServer(dataDir: string, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [bin, 'start'], {
    env: { ...process.env, SCRUB_DATA_DIR: dataDir, SCRUB_PORT: '0', SCRUB_LOG_LEVEL: 'silent', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const channel = join(dataDir, 'local-control.json');
  const url = await until('the server to listen', () => {
    if (child.exitCode !== null) throw new Error(`scrub-server exited ${child.exitCode}`);
    return existsSync(channel)
      ? (JSON.parse(readFileSync(channel, 'utf8')) as { url: string }).url
      : undefined;
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { url, stop };
}

/** A client of one running server, signed in with an API key. */
function client(url: string, apiKey: string) {
  const headers = { 'x-api-key': apiKey };
  return {
    async json(method: string, path: string, body?: unknown) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async bytes(path: string) {
      const res = await fetch(`${url}${path}`, { headers });
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

async function signUp(url: string, dataDir: string, email: string): Promise<string> {
  const { identity } = (await (await fetch(`${url}/config`)).json()) as {
    identity: { endpoint: string; client_id: string };
  };
  const pool = (operation: string, body: object) =>
    callPool(identity.endpoint, operation, { ClientId: identity.client_id, ...body });
  expect((await pool('SignUp', { Username: email, Password: PASSWORD })).status).toBe(200);
  const mail = serverBin(dataDir, 'mail', '--to', email, '--last', '--json');
  const code = /code: (\d{6})/.exec(JSON.parse(mail.stdout).subject)?.[1];
  expect((await pool('ConfirmSignUp', { Username: email, ConfirmationCode: code })).status).toBe(200);
  return signIn(url, email);
}

async function signIn(url: string, email: string): Promise<string> {
  const { identity } = (await (await fetch(`${url}/config`)).json()) as {
    identity: { endpoint: string; client_id: string };
  };
  const signedIn = await callPool(identity.endpoint, 'InitiateAuth', {
    ClientId: identity.client_id,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: PASSWORD },
  });
  expect(signedIn.status).toBe(200);
  return (signedIn.body.AuthenticationResult as { IdToken: string }).IdToken;
}

/** Every ledger entry and account balance in a data directory's database, read with no server running. */
async function ledgerOf(dataDir: string) {
  const database = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  try {
    const entries = await database.db.selectFrom('credit_ledger').selectAll().orderBy('id').execute();
    const profiles = await database.db
      .selectFrom('profiles')
      .select(['id', 'email', 'credits'])
      .orderBy('id')
      .execute();
    const jobs = await database.db.selectFrom('bulk_jobs').select(['id', 'status']).orderBy('id').execute();
    return { entries, profiles, jobs };
  } finally {
    await database.close();
  }
}

describe.runIf(existsSync(bin))('scrub-server backup and restore (built, embedded)', () => {
  it('backs up a running service mid-job; the restored one has every account, ledger entry, file and proof key', async () => {
    const original = tempDir('scrub-backup-a-');
    const backup = join(tempDir('scrub-backup-'), 'backup');
    const restored = join(tempDir('scrub-backup-b-'), 'data');
    const email = 'owner@example.com';

    const first = await startServer(original);
    let backupStarted: Date;
    let keys: unknown;
    let smallResult: string;
    let smallReference: string;
    let smallUpload: string;
    let bigJob: string;
    let apiKey: string;
    try {
      const idToken = await signUp(first.url, original, email);
      // The first signed-in call makes the account; then the operator grants it credits.
      const rotated = await fetch(`${first.url}/apikey`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${idToken}` },
      });
      apiKey = ((await rotated.json()) as { api_key: string }).api_key;
      expect(serverBin(original, 'credits', 'grant', email, '1000000').status).toBe(0);
      const api = client(first.url, apiKey);
      expect((await api.json('GET', '/verify?p=2012345678')).status).toBe(200);

      const small = await api.json('POST', '/bulk/jobs', {
        file_name: 'small.csv',
        phone_col: 0,
        header_row: 0,
        csv_content: '2012345678\n2015550123\n3125550199\n',
      });
      const done = await api.json('GET', `/bulk/jobs/${small.body.job_id}?wait=20`);
      expect(done.body.status).toBe('completed');
      smallReference = done.body.file_reference as string;
      smallResult = sha256(await api.bytes(`/files/${smallReference}/result`));
      smallUpload = sha256(await api.bytes(`/files/${smallReference}/upload`));

      // The second job is streamed in and held part-way by this test: it is running for as long as the backup takes.
      const lines = leadFile(BIG_JOB_ROWS).toString('utf8').split('\r\n');
      const half = Math.floor(lines.length / 2);
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(Buffer.from(`${lines.slice(0, half).join('\r\n')}\r\n`));
          await held;
          controller.enqueue(Buffer.from(lines.slice(half).join('\r\n')));
          controller.close();
        },
      });
      const streamed = await fetch(`${first.url}/bulk/jobs/stream?file_name=big.csv&phone_col=phone`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'text/csv' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(200);
      bigJob = streamed.headers.get(JOB_ID_HEADER)!;
      const reading = (async () => {
        const reader = streamed.body!.getReader();
        while (!(await reader.read()).done);
      })();
      expect((await api.json('GET', `/bulk/jobs/${bigJob}`)).body.status).toBe('processing');
      keys = await (await fetch(`${first.url}/.well-known/scrub-proof-keys.json`)).json();
      backupStarted = new Date();
      const backedUp = serverBin(original, 'backup', backup);
      expect(backedUp.stderr).toBe('');
      expect(backedUp.stdout).toMatch(/^Backed up .* the database \(.*\) and \d+ files/);
      expect(backedUp.status).toBe(0);
      // The backup went through the server and stopped nothing: the job goes on and completes.
      expect((await api.json('GET', `/bulk/jobs/${bigJob}`)).body.status).toBe('processing');
      release();
      await reading;
      expect((await api.json('GET', `/bulk/jobs/${bigJob}`)).body.status).toBe('completed');
    } finally {
      await first.stop();
    }

    const restoredRun = serverBin(restored, 'restore', backup);
    expect(restoredRun.stderr).toBe('');
    expect(restoredRun.status).toBe(0);

    // The ledger as it stood: the restored entries are the original's, and the balance is theirs.
    const then = await ledgerOf(original);
    const now = await ledgerOf(restored);
    expect(now.profiles.map((p) => p.email)).toEqual(then.profiles.map((p) => p.email));
    expect(now.entries.length).toBeGreaterThanOrEqual(3);
    expect(then.entries.slice(0, now.entries.length)).toEqual(now.entries);
    expect(now.entries.length).toBeGreaterThanOrEqual(
      then.entries.filter((entry) => entry.created_at < backupStarted).length,
    );
    const balance = now.entries.at(-1)!.balance_after;
    expect(now.profiles[0]?.credits).toBe(balance);
    // The running job was copied running, with the credits it had reserved; the original went on to finish it.
    expect(now.jobs.find((job) => job.id === bigJob)?.status).toBe('processing');
    expect(then.jobs.find((job) => job.id === bigJob)?.status).toBe('completed');
    expect(now.entries.some((entry) => entry.reference === bigJob && entry.kind === 'bulk_charge')).toBe(
      true,
    );
    expect(now.jobs.map((job) => job.id)).toEqual(then.jobs.map((job) => job.id));

    const second = await startServer(restored, { SCRUB_BULK_WORKER: 'false' });
    try {
      const api = client(second.url, apiKey);
      // The same key, the same balance, the same file byte for byte, the same proof keys; the password still signs in.
      expect((await api.json('GET', '/credits')).body).toMatchObject({ credits: balance });
      expect(sha256(await api.bytes(`/files/${smallReference}/result`))).toBe(smallResult);
      expect(await (await fetch(`${second.url}/.well-known/scrub-proof-keys.json`)).json()).toEqual(keys);
      expect(await signIn(second.url, email)).toMatch(/^ey/);
      expect(sha256(await api.bytes(`/files/${smallReference}/upload`))).toBe(smallUpload);
      expect((await api.json('GET', `/bulk/jobs/${bigJob}`)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});
