import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { finished } from 'node:stream/promises';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3TestServer } from '../../test/s3-test-server.js';
import { loadConfig } from '../config/config.js';
import { installErrorHandler } from '../http/error-handler.js';
import { publicUrlOf } from '../http/public-url.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';
import { setUpBlobStore } from './setup.js';

/** One store under test, and how it answers what the two setups answer differently. */
interface Subject {
  store: BlobStore;
  /** A URL used a second time: local refuses it, S3 takes it until it expires. */
  reuse: 409 | 200;
  /** A body past `maxBytes`: local refuses it, a presigned PUT cannot (size is checked with `stat`). */
  oversize: 413 | 200;
  /** Another Content-Type than the URL's: local says so, S3's signature no longer matches. */
  wrongType: 415 | 403;
  close(): Promise<void>;
}

/** The local store as the server runs it: its upload route in an app, whose error log is kept. */
async function localApp() {
  const dir = mkdtempSync(join(tmpdir(), 'scrub-files-'));
  const config = loadConfig({}, { blobStore: { kind: 'local', dir } });
  const errors: string[] = [];
  const log = new Writable({
    write(line, _encoding, done) {
      errors.push(String(line));
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'error' }, log) as FastifyBaseLogger });
  installErrorHandler(app);
  const publicUrl = publicUrlOf(config, app);
  const store = await setUpBlobStore(app, config, publicUrl);
  return {
    app,
    dir,
    store,
    publicUrl,
    errors,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function localSubject(): Promise<Subject> {
  const local = await localApp();
  await local.app.listen({ host: '127.0.0.1', port: 0 });
  return { store: local.store, reuse: 409, oversize: 413, wrongType: 415, close: local.close };
}

async function s3Subject(): Promise<Subject> {
  const s3 = await startS3TestServer();
  // Through the AWS default credential chain, as in production.
  vi.stubEnv('AWS_ACCESS_KEY_ID', s3.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', s3.secretAccessKey);
  const config = loadConfig({
    SCRUB_S3_BUCKET: s3.bucket,
    SCRUB_S3_REGION: 'us-east-1',
    SCRUB_S3_ENDPOINT: s3.endpoint,
    SCRUB_S3_FORCE_PATH_STYLE: 'true',
  });
  const app = Fastify();
  const store = await setUpBlobStore(app, config, () => 'http://unused.invalid');
  return {
    store,
    reuse: 200,
    oversize: 200,
    wrongType: 403,
    async close() {
      await app.close();
      await s3.close();
      vi.unstubAllEnvs();
    },
  };
}

const MiB = 1024 * 1024;
const newKey = () => `uploads/${randomUUID()}.csv`;
const put = (url: string, body: Buffer | string, contentType = 'text/csv') =>
  fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

async function readAll(store: BlobStore, key: string, range?: { start?: number; end?: number }) {
  const stream = await store.read(key, range);
  if (!stream) throw new Error(`${key} is not there`);
  return buffer(stream);
}

/** A stream of `total` random bytes in chunks of 64 KiB, and what it produced. */
function randomStream(total: number) {
  const chunks: Buffer[] = [];
  async function* produce() {
    for (let sent = 0; sent < total; sent += 64 * 1024) {
      const chunk = randomBytes(Math.min(64 * 1024, total - sent));
      chunks.push(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(produce()), produced: () => Buffer.concat(chunks) };
}

describe.each([
  { name: 'local', start: localSubject },
  { name: 's3', start: s3Subject },
])('the $name blob store', ({ start }) => {
  let subject: Subject;
  let store: BlobStore;
  const upload = (key: string, options: { expiresInSeconds?: number; maxBytes?: number } = {}) =>
    store.createUploadUrl(key, {
      expiresInSeconds: options.expiresInSeconds ?? 300,
      maxBytes: options.maxBytes ?? 64 * MiB,
      contentType: 'text/csv',
    });

  beforeAll(async () => {
    subject = await start();
    store = subject.store;
  });
  afterAll(() => subject?.close());

  it('takes an upload and gives it back byte for byte, answering like S3', async () => {
    const key = newKey();
    const { url, expiresAt } = await upload(key);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 290_000);
    const body = randomBytes(5 * MiB + 123);
    const res = await put(url, body);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${md5(body)}"`);
    expect(await store.stat(key)).toEqual({ size: body.length, contentType: 'text/csv' });
    expect((await readAll(store, key)).equals(body)).toBe(true);
  });

  it('reads a byte range, ends included', async () => {
    const key = newKey();
    expect((await put((await upload(key)).url, 'phone\n2015550123\n')).status).toBe(200);
    expect((await readAll(store, key, { start: 6, end: 8 })).toString()).toBe('201');
    expect((await readAll(store, key, { start: 6 })).toString()).toBe('2015550123\n');
  });

  it('writes a result stream of many parts and reads it back', async () => {
    const key = `results/${randomUUID()}.csv`;
    const { stream, produced } = randomStream(12 * MiB + 5);
    expect(await store.write(key, stream, 'text/csv')).toEqual({ size: 12 * MiB + 5 });
    expect(await store.stat(key)).toEqual({ size: 12 * MiB + 5, contentType: 'text/csv' });
    expect((await readAll(store, key)).equals(produced())).toBe(true);
  });

  it("takes a result written to its stream, in place once finished; a chunk is the writer's again once written", async () => {
    const key = `results/${randomUUID()}.csv`;
    const writer = store.createWriteStream(key, 'text/csv');
    const expected: Buffer[] = [];
    const chunk = Buffer.alloc(MiB);
    for (let i = 0; i < 12; i++) {
      chunk.fill(`part ${i},`);
      expected.push(Buffer.from(chunk));
      await new Promise<void>((resolve, reject) =>
        writer.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
      // Reused at once, as the bulk worker frees each piece of a result once written.
      chunk.fill(0);
    }
    expect(await store.stat(key)).toBeNull();
    writer.end();
    await finished(writer);
    expect(await store.stat(key)).toEqual({ size: 12 * MiB, contentType: 'text/csv' });
    expect((await readAll(store, key)).equals(Buffer.concat(expected))).toBe(true);
  });

  it('stores nothing when its write stream is destroyed before the end', async () => {
    const key = `results/${randomUUID()}.csv`;
    const writer = store.createWriteStream(key, 'text/csv');
    // Past a part (8 MiB) on S3, so that a multipart upload is under way and must be aborted.
    await new Promise((resolve) => writer.write(Buffer.alloc(10 * MiB, 'a'), resolve));
    writer.destroy(new Error('the scrub failed'));
    await finished(writer).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.stat(key)).toBeNull();
  });

  it('replaces a file whole on a second write', async () => {
    const key = `results/${randomUUID()}.csv`;
    await store.write(key, Readable.from(['first version, longer\n']), 'text/csv');
    await store.write(key, Readable.from(['second\n']), 'text/plain');
    expect(await store.stat(key)).toEqual({ size: 7, contentType: 'text/plain' });
    expect((await readAll(store, key)).toString()).toBe('second\n');
  });

  it('stores nothing when the stream being written fails', async () => {
    const key = `results/${randomUUID()}.csv`;
    async function* failing() {
      yield Buffer.alloc(256 * 1024, 'a');
      throw new Error('the worker fell over');
    }
    await expect(store.write(key, Readable.from(failing()), 'text/csv')).rejects.toThrow();
    expect(await store.stat(key)).toBeNull();
  });

  it('refuses an expired upload URL with 403 and stores nothing', async () => {
    const key = newKey();
    const { url } = await upload(key, { expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const res = await put(url, 'phone\n2015550123\n');
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/expired/i);
    expect(await store.stat(key)).toBeNull();
  });

  it('refuses an altered upload URL with 403', async () => {
    const key = newKey();
    const { url } = await upload(key);
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace(key, 'uploads/somebody-else.csv');
    expect((await put(otherKey.toString(), 'x\n')).status).toBe(403);
    const forged = new URL(url);
    const name = [...forged.searchParams.keys()].find((n) => /signature/i.test(n))!;
    const signature = forged.searchParams.get(name)!;
    forged.searchParams.set(name, `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
    expect((await put(forged.toString(), 'x\n')).status).toBe(403);
    expect(await store.stat(key)).toBeNull();
    expect(await store.stat('uploads/somebody-else.csv')).toBeNull();
  });

  it('refuses another content type than the URL was made for, and stores nothing', async () => {
    const key = newKey();
    const { url } = await upload(key);
    const res = await put(url, 'phone\n2015550123\n', 'application/octet-stream');
    expect(res.status).toBe(subject.wrongType);
    expect(await store.stat(key)).toBeNull();
  });

  it('answers a reused upload URL as the setup does (local: 409, first file kept; S3: replaced)', async () => {
    const key = newKey();
    const { url } = await upload(key);
    expect((await put(url, 'first\n')).status).toBe(200);
    const again = await put(url, 'second!\n');
    expect(again.status).toBe(subject.reuse);
    expect((await readAll(store, key)).toString()).toBe(subject.reuse === 409 ? 'first\n' : 'second!\n');
  });

  it('answers a body past the limit as the setup does (local: 413, nothing kept; S3: kept, stat tells)', async () => {
    const key = newKey();
    const { url } = await upload(key, { maxBytes: 1000 });
    const res = await put(url, Buffer.alloc(1001, 'a'));
    expect(res.status).toBe(subject.oversize);
    expect(await store.stat(key)).toEqual(
      subject.oversize === 413 ? null : { size: 1001, contentType: 'text/csv' },
    );
  });

  it('knows no file under a key never written', async () => {
    expect(await store.stat('uploads/never.csv')).toBeNull();
    expect(await store.read('uploads/never.csv')).toBeNull();
    await expect(store.delete('uploads/never.csv')).resolves.toBeUndefined();
  });

  it('deletes a file', async () => {
    const key = `results/${randomUUID()}.csv`;
    await store.write(key, Readable.from(['a,b\n']), 'text/csv');
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    expect(await store.read(key)).toBeNull();
  });

  it('refuses keys that could leave their place', async () => {
    for (const key of [
      '../escape.csv',
      'uploads/../../etc/passwd',
      '/etc/passwd',
      'a//b',
      '',
      '.tmp/x',
      'a/.',
    ]) {
      await expect(store.stat(key)).rejects.toThrow(/Invalid file key/);
      await expect(store.read(key)).rejects.toThrow(/Invalid file key/);
      await expect(store.write(key, Readable.from(['x']), 'text/csv')).rejects.toThrow(/Invalid file key/);
      await expect(store.delete(key)).rejects.toThrow(/Invalid file key/);
      await expect(upload(key)).rejects.toThrow(/Invalid file key/);
    }
  });
});

describe('the local blob store', () => {
  let local: Awaited<ReturnType<typeof localApp>>;
  const scratchFiles = () => readdirSync(join(local.dir, '.tmp'));
  const upload = (key: string, maxBytes = 64 * MiB) =>
    local.store.createUploadUrl(key, { expiresInSeconds: 300, maxBytes, contentType: 'text/csv' });

  beforeAll(async () => {
    local = await localApp();
    // A JSON route beside the upload route: each keeps its own body handling.
    local.app.post('/echo', async (request) => request.body);
    await local.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => local?.close());

  it('refuses a declared Content-Length past the limit before reading the body', async () => {
    const key = newKey();
    const res = await put((await upload(key, 1024 * 1024)).url, Buffer.alloc(1024 * 1024 + 1, 'a'));
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({
      error: {
        code: 'payload_too_large',
        message: 'The file is larger than the upload limit of 1 MiB (1048576 bytes).',
      },
    });
    expect(await local.store.stat(key)).toBeNull();
    expect(scratchFiles()).toEqual([]);
  });

  it('refuses a body of undeclared length as soon as it passes the limit', async () => {
    const key = newKey();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded, and far more than the limit: a server that read it all would be caught here.
        if (sent >= 256 * MiB) return controller.close();
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(97));
      },
    });
    const res = await fetch((await upload(key, 1 * MiB)).url, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(32 * MiB);
    expect(await local.store.stat(key)).toBeNull();
    await expect.poll(scratchFiles).toEqual([]);
  });

  it('keeps nothing of an upload cut off mid-body', async () => {
    const key = newKey();
    const url = new URL((await upload(key)).url);
    await new Promise<void>((resolve) => {
      const request = httpRequest(url, {
        method: 'PUT',
        headers: { 'content-type': 'text/csv', 'content-length': String(4 * MiB) },
      });
      request.on('error', () => resolve());
      request.write(Buffer.alloc(MiB, 'a'), () => setTimeout(() => request.destroy(), 100));
      request.on('close', () => resolve());
    });
    await expect.poll(scratchFiles).toEqual([]);
    expect(await local.store.stat(key)).toBeNull();
    expect(local.errors).toEqual([]);
    // Nothing landed, so the URL still works.
    expect((await put(url.toString(), 'phone\n')).status).toBe(200);
  });

  it('lets exactly one of two racing uploads through one URL land', async () => {
    const key = newKey();
    const { url } = await upload(key);
    const [a, b] = [randomBytes(2 * MiB), randomBytes(2 * MiB)];
    const [first, second] = await Promise.all([put(url, a), put(url, b)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect((await readAll(local.store, key)).equals(first.status === 200 ? a : b)).toBe(true);
    expect(scratchFiles()).toEqual([]);
  });

  it('says what a reused URL, a missing Content-Type or an unknown path means', async () => {
    const key = newKey();
    const { url } = await upload(key);
    const missingType = await fetch(url, { method: 'PUT', body: new Uint8Array([97]) });
    expect(missingType.status).toBe(415);
    expect(((await missingType.json()) as { message: string }).message).toContain("'Content-Type: text/csv'");
    expect((await put(url, 'phone\n')).status).toBe(200);
    const reused = await put(url, 'phone\n');
    expect(await reused.json()).toMatchObject({ error: { code: 'conflict' } });
    expect((await put(`${local.publicUrl()}/uploads/..%2Fescape.csv`, 'x')).status).toBe(404);
  });

  it('honours URLs signed by another process on the same data directory, and no other install', async () => {
    const sibling = new LocalBlobStore({ dir: local.dir, publicUrl: local.publicUrl });
    const key = newKey();
    const { url } = await sibling.createUploadUrl(key, {
      expiresInSeconds: 60,
      maxBytes: 100,
      contentType: 'text/csv',
    });
    expect((await put(url, 'phone\n')).status).toBe(200);
    expect(statSync(join(local.dir, '.upload-signing-key')).mode & 0o777).toBe(0o600);

    const elsewhere = mkdtempSync(join(tmpdir(), 'scrub-files-'));
    try {
      const stranger = new LocalBlobStore({ dir: elsewhere, publicUrl: local.publicUrl });
      const forged = await stranger.createUploadUrl(newKey(), {
        expiresInSeconds: 60,
        maxBytes: 100,
        contentType: 'text/csv',
      });
      expect((await put(forged.url, 'phone\n')).status).toBe(403);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('leaves JSON bodies to the rest of the API', async () => {
    const echo = await fetch(`${local.publicUrl()}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({ a: 1 });
    const csv = await fetch(`${local.publicUrl()}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: 'a\n',
    });
    expect(csv.status).toBe(415);
  });
});

describe('the S3 blob store', () => {
  it('presigns upload URLs without a checksum, which S3 would hold the uploaded body to', async () => {
    const store = new S3BlobStore({
      kind: 's3',
      bucket: 'scrub',
      region: 'us-east-1',
      endpoint: null,
      forcePathStyle: false,
    });
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    try {
      const { url } = await store.createUploadUrl('uploads/a.csv', {
        expiresInSeconds: 900,
        maxBytes: 100,
        contentType: 'text/csv',
      });
      const signed = new URL(url);
      expect(signed.host).toBe('scrub.s3.us-east-1.amazonaws.com');
      expect(signed.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
      expect(signed.searchParams.get('X-Amz-Expires')).toBe('900');
      expect([...signed.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
    } finally {
      store.close();
      vi.unstubAllEnvs();
    }
  });
});
