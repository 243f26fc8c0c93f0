import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAccount, type RunningServer, scrub } from '../../test/harness.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'bin.js');
const dir = mkdtempSync(join(tmpdir(), 'scrub-bulk-resume-'));
const PART = 4096;

/**
 * A TCP proxy in front of the service that counts the bytes clients send, and can stall: past
 * `stallAfter` bytes it holds everything, as a network that stopped moving (the client hangs).
 */
async function stallingProxy() {
  let target = 0;
  let sent = 0;
  let stallAt = Number.POSITIVE_INFINITY;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client);
    client.on('data', (chunk: Buffer) => {
      if (sent >= stallAt) return;
      sent += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('close', () => b.destroy());
      a.on('error', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo: (port: number) => {
      target = port;
    },
    stallAfter: (bytes: number) => {
      stallAt = sent + bytes;
    },
    stalled: () => sent >= stallAt,
    /** Drops the held connections and forwards again. */
    resume: () => {
      stallAt = Number.POSITIVE_INFINITY;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    sent: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('scrub bulk FILE, killed mid-upload and run again', () => {
  let server: RunningServer;
  let proxy: Awaited<ReturnType<typeof stallingProxy>>;
  const dataDir = join(dir, 'data');

  beforeAll(async () => {
    proxy = await stallingProxy();
    const { loadConfig, startServer } = await import('@scrub/server');
    const { TEST_LIMITS } = await import('@scrub/test-support/local-server');
    // Upload URLs name the proxy, so the parts go through it too.
    server = await startServer(
      loadConfig(
        {
          SCRUB_DATA_DIR: dataDir,
          SCRUB_UPLOAD_PART_BYTES: String(PART),
          SCRUB_PUBLIC_URL: proxy.url,
          ...TEST_LIMITS,
        },
        { port: 0 },
      ),
      false,
    );
    proxy.forwardTo(Number(new URL(server.url).port));
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes the upload where the killed run left it, sends only the rest, and scrubs the whole file', async () => {
    expect(existsSync(bin), `${bin} is missing: build first (pnpm build)`).toBe(true);
    const env: NodeJS.ProcessEnv = {
      ...(await apiKeyAccount(server, dataDir, 100_000)),
      SCRUB_API_URL: proxy.url,
    };
    const rows = Array.from(
      { length: 2000 },
      (_, i) => `Lead ${i},(201) 5${String(i % 100).padStart(2, '0')}-${1000 + i}`,
    );
    const file = join(dir, 'leads.csv');
    writeFileSync(file, ['Name,Phone', ...rows].join('\n'));
    const size = Buffer.byteLength(['Name,Phone', ...rows].join('\n'));

    // The first run: the network stops moving a third of the way in, and the run is killed.
    proxy.stallAfter(Math.floor(size / 3));
    const child = spawn(process.execPath, [bin, 'bulk', file, '--phone-col', 'Phone', '--yes'], {
      env: { ...env, PATH: process.env.PATH },
      stdio: 'ignore',
    });
    await until('the upload to stall', proxy.stalled);
    await until('the upload id to be kept', () => existsSync(join(env.SCRUB_CONFIG_DIR!, 'uploads.json')));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    proxy.resume();

    // Run again: it resumes, says where, and sends the rest only.
    const before = proxy.sent();
    const again = await scrub(['--json', 'bulk', file, '--phone-col', 'Phone', '--yes'], env);
    expect(again.code, again.stderr).toBe(0);
    const resumedAt = Number(/Resumed the upload at (\d+)%/.exec(again.stderr)?.[1]);
    expect(resumedAt).toBeGreaterThanOrEqual(20);
    expect(resumedAt).toBeLessThan(100);
    expect(proxy.sent() - before).toBeLessThan(size * (1 - resumedAt / 100) + 32 * 1024);

    const job = JSON.parse(again.stdout) as { job_id: string };
    const done = await scrub(['--json', 'jobs', 'wait', job.job_id], env);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: 'completed', total_rows: 2000 });

    // Finished: a third run is a new job, not a resume.
    const third = await scrub(['--json', 'bulk', file, '--phone-col', 'Phone', '--yes'], env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toMatch(/Resumed/);
    expect((JSON.parse(third.stdout) as { job_id: string }).job_id).not.toBe(job.job_id);
  });
});
