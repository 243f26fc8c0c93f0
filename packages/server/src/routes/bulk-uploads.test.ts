import { request as httpRequest } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import {
  BulkJobSchema,
  CreatedBulkJobSchema,
  type ResumableUpload,
  ResumableUploadSchema,
} from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { type S3TestServer, startS3TestServer } from '../../test/s3-test-server.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import type { BlobStoreTarget } from '../blob-store/blob-store.js';
import { LocalBlobStore } from '../blob-store/local-blob-store.js';
import { S3BlobStore } from '../blob-store/s3-blob-store.js';
import { removeAbandonedUploads } from '../bulk/resumable-upload.js';

const PART = 16 * 1024;

/** A CSV of `rows` distinct valid numbers, a little over `rows * 30` bytes. */
function leads(rows: number): Buffer {
  const lines = ['Name,Phone'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `Lead number ${i},(201) 5${String(i).padStart(2, '0').slice(-2)}-${String(1000 + (i % 9000)).padStart(4, '0')}`,
    );
  return Buffer.from(lines.join('\r\n'));
}

/**
 * A TCP proxy in front of an address that counts the bytes clients send through it, and can cut
 * every connection once `cutAfter` bytes went through (a network that drops mid-upload).
 */
async function countingProxy(target: URL) {
  const sockets = new Set<Socket>();
  let sent = 0;
  let cutAfter = Number.POSITIVE_INFINITY;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client);
    client.on('data', (chunk: Buffer) => {
      const room = cutAfter - sent;
      if (chunk.length >= room) {
        upstream.write(chunk.subarray(0, Math.max(room, 0)));
        sent += Math.max(room, 0);
        cutAfter = Number.POSITIVE_INFINITY;
        client.destroy();
        upstream.destroy();
        return;
      }
      sent += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    cutAfter: (bytes: number) => {
      cutAfter = sent + bytes;
    },
    sent: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * PUTs bytes with node:http, to the URL's host or through a proxy's port (with the URL's own Host
 * header, which an S3 signature covers); answers the status, or 'cut' when the connection dropped.
 */
function putPart(url: string, body: Buffer, throughPort?: number): Promise<number | 'cut'> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = httpRequest({
      host: '127.0.0.1',
      port: throughPort ?? target.port,
      path: target.pathname + target.search,
      method: 'PUT',
      headers: { host: target.host, 'content-length': String(body.length) },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve('cut'));
    request.end(body);
  });
}

interface Setup {
  name: string;
  store: 'local' | 's3';
  database: TestDatabase | undefined;
}

const setups: Setup[] = [
  ...testDatabases().map((database) => ({
    name: `local store, ${database.kind}`,
    store: 'local' as const,
    database,
  })),
  { name: 's3 store (s3rver), pglite', store: 's3', database: undefined },
];

describe.each(setups)('resumable bulk uploads: $name', ({ store, database }) => {
  let t: TestApp;
  let s3: S3TestServer | undefined;
  let target: BlobStoreTarget;
  let base: string;
  let headers: Record<string, string>;
  let otherHeaders: Record<string, string>;

  async function account(name: string, credits: number) {
    const db = t.database.db;
    const { id } = await ensureProfile(db, {
      sub: name,
      email: `${name}@example.com`,
      name: '',
      role: 'User',
    });
    if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
    return { 'x-api-key': (await rotateApiKey(db, id)).api_key };
  }

  beforeAll(async () => {
    target =
      store === 'local'
        ? ({ kind: 'local', dir: `${tempDir()}/files` } as const)
        : await (async () => {
            s3 = await startS3TestServer();
            vi.stubEnv('AWS_ACCESS_KEY_ID', s3.accessKeyId);
            vi.stubEnv('AWS_SECRET_ACCESS_KEY', s3.secretAccessKey);
            return {
              kind: 's3',
              bucket: s3.bucket,
              region: 'us-east-1',
              endpoint: s3.endpoint,
              forcePathStyle: true,
            } as const;
          })();
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: target, uploadPartBytes: PART },
      database ? { database: await database.open() } : {},
    );
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    headers = await account(`uploads-${store}-${database?.kind}`, 100_000);
    otherHeaders = await account(`uploads-other-${store}-${database?.kind}`, 0);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    vi.unstubAllEnvs();
  });

  async function call(method: 'GET' | 'POST', path: string, payload?: unknown, as = headers) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...as, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { error?: { message: string } },
    };
  }

  async function newJob() {
    const created = await call('POST', '/bulk/jobs', { file_name: 'leads.csv', phone_col: 'Phone' });
    expect(created.status).toBe(201);
    return CreatedBulkJobSchema.parse(created.body);
  }

  async function start(jobId: string, size: number): Promise<ResumableUpload> {
    const started = await call('POST', `/bulk/jobs/${jobId}/uploads`, { size });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return ResumableUploadSchema.parse(started.body);
  }

  /** The URL as the test reaches it: the local store's URLs name the service's public URL. */
  const reachable = (url: string) =>
    store === 'local' ? `${base}${new URL(url).pathname}${new URL(url).search}` : url;

  it('resumes a dropped upload with only the parts that did not arrive, and scrubs the whole file', async () => {
    const file = leads(2000);
    const job = await newJob();
    const upload = await start(job.job_id, file.length);
    expect(upload.part_size).toBe(PART);
    expect(upload.part_count).toBe(Math.ceil(file.length / PART));
    expect(upload.parts_to_send).toHaveLength(upload.part_count);
    expect(upload.bytes_received).toBe(0);

    // Parts 1 and 2 arrive; the connection drops halfway through part 3.
    const proxy = await countingProxy(new URL(reachable(upload.parts_to_send[0]!.url)));
    try {
      for (const part of upload.parts_to_send.slice(0, 2)) {
        expect(await putPart(reachable(part.url), file.subarray(part.start, part.end), proxy.port)).toBe(200);
      }
      const third = upload.parts_to_send[2]!;
      proxy.cutAfter(PART / 2);
      expect(await putPart(reachable(third.url), file.subarray(third.start, third.end), proxy.port)).toBe(
        'cut',
      );

      // The service says what it holds: exactly the first two parts.
      const resumed = ResumableUploadSchema.parse(
        (await call('GET', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}`)).body,
      );
      expect(resumed.parts_received).toEqual([1, 2]);
      expect(resumed.bytes_received).toBe(2 * PART);
      expect(resumed.parts_to_send.map((part) => part.part_number)).toEqual(
        Array.from({ length: upload.part_count - 2 }, (_, i) => i + 3),
      );

      // The rest goes up; counted on the wire, it is the remainder (plus request headers), not the file.
      const before = proxy.sent();
      for (const part of resumed.parts_to_send) {
        expect(await putPart(reachable(part.url), file.subarray(part.start, part.end), proxy.port)).toBe(200);
      }
      const resent = proxy.sent() - before;
      expect(resent).toBeGreaterThanOrEqual(file.length - 2 * PART);
      expect(resent).toBeLessThan(file.length - 2 * PART + resumed.parts_to_send.length * 2048);
    } finally {
      await proxy.close();
    }

    const completed = await call('POST', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ completed: true, bytes_received: file.length, parts_to_send: [] });
    // Completing again answers the same, and puts nothing together twice.
    expect(
      (await call('POST', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}/complete`)).body,
    ).toMatchObject({ completed: true });

    const submitted = await call('POST', `/bulk/jobs/${job.job_id}/submit`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.credits_charged).toBe(2000);
    let done = BulkJobSchema.parse(submitted.body);
    for (let i = 0; i < 200 && done.status !== 'completed' && done.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = BulkJobSchema.parse((await call('GET', `/bulk/jobs/${job.job_id}`)).body);
    }
    expect(done.status).toBe('completed');
    expect(done.total_rows).toBe(2000);
  });

  it('refuses what cannot make the file, saying what was wrong', async () => {
    const file = leads(2000);
    const job = await newJob();

    const tooLarge = await call('POST', `/bulk/jobs/${job.job_id}/uploads`, {
      size: t.config.maxUploadBytes + 1,
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error?.message).toMatch(/largest accepted/);

    const upload = await start(job.job_id, file.length);
    const [first, second] = upload.parts_to_send;

    // Someone else's job, and an upload id that is not this job's: no such upload.
    expect(
      (await call('GET', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}`, undefined, otherHeaders))
        .status,
    ).toBe(404);
    const otherJob = await newJob();
    const notThisJobs = await call('GET', `/bulk/jobs/${otherJob.job_id}/uploads/${upload.upload_id}`);
    expect(notThisJobs.status).toBe(404);
    expect(notThisJobs.body.error?.message).toMatch(/No upload/);

    // A part larger than a part: the local store refuses it; S3 cannot, and completing says which.
    const oversized = await putPart(
      reachable(first!.url),
      Buffer.concat([file.subarray(0, PART), Buffer.from('x')]),
    );
    expect(oversized).toBe(store === 'local' ? 413 : 200);
    // A short part.
    expect(await putPart(reachable(second!.url), file.subarray(second!.start, second!.end - 10))).toBe(200);

    const missing = await call('POST', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}/complete`);
    if (store === 'local') {
      expect(missing.status).toBe(400);
      expect(missing.body.error?.message).toMatch(/Part 2 has \d+ bytes; it must have 16384/);
    } else {
      expect(missing.status).toBe(400);
      expect(missing.body.error?.message).toMatch(/Part 1 has 16385 bytes; it must have 16384/);
    }
    for (const part of upload.parts_to_send.slice(0, 2)) {
      expect(await putPart(reachable(part.url), file.subarray(part.start, part.end))).toBe(200);
    }
    const stillMissing = await call('POST', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}/complete`);
    expect(stillMissing.status).toBe(409);
    expect(stillMissing.body.error?.message).toMatch(/parts have not arrived \(3/);

    // A job whose file came whole: no upload in parts on top of it.
    const whole = await newJob();
    await fetch(reachable(whole.upload_url!), {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: file,
    });
    const afterWhole = await call('POST', `/bulk/jobs/${whole.job_id}/uploads`, { size: file.length });
    expect(afterWhole.status).toBe(409);
  });

  it('removes an upload abandoned past its deadline, parts and all', async () => {
    const file = leads(800);
    const job = await newJob();
    const upload = await start(job.job_id, file.length);
    const first = upload.parts_to_send[0]!;
    expect(await putPart(reachable(first.url), file.subarray(first.start, first.end))).toBe(200);

    // The service's own sweep, run as it would be a day later, on a store of the same files.
    const files =
      target.kind === 'local'
        ? new LocalBlobStore({ dir: target.dir, publicUrl: () => base })
        : new S3BlobStore(target);
    const removed = await removeAbandonedUploads(
      t.database.db,
      files,
      new Date(Date.parse(upload.expires_at) + 1000),
    );
    expect(removed).toBeGreaterThanOrEqual(1);
    const gone = await call('GET', `/bulk/jobs/${job.job_id}/uploads/${upload.upload_id}`);
    expect(gone.status).toBe(404);
    // Its part URLs no longer take anything.
    expect(await putPart(reachable(first.url), file.subarray(first.start, first.end))).not.toBe(200);
  });
});
