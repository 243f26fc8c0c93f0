import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
// Type imports only: from source (tests), Node runs this file as it is, with no other of ours to load.
import type { PGliteThreadOptions, Reply, Request, ThreadError } from './pglite-thread-protocol.js';

/**
 * PGlite on a thread of its own (`PGliteThread` starts it) or in a process of its own
 * (`PGliteProcess` forks it, its first message the options): runs each request in the order it
 * came, answers it, and passes on each `NOTIFY` on a channel the caller listens to. A process
 * ends with its parent: when the channel closes, it closes PGlite and exits.
 */
const port = parentPort;
const ipc = port ? null : process;
if (!port && !ipc?.send) {
  throw new Error('pglite-worker runs as a worker thread or a forked process (PGliteThread starts it).');
}

/** How long a process whose parent is gone gives PGlite to write its last pages. */
const ORPHAN_CLOSE_MS = 5_000;

function send(reply: Reply, transfer?: ArrayBuffer): void {
  if (port) port.postMessage(reply, transfer ? [transfer] : []);
  // With a callback, a send that fails (the parent just died) is not an 'error' event: the disconnect follows.
  else if (ipc?.connected) ipc.send?.(reply, undefined, undefined, () => {});
}

function onRequest(handle: (request: Request) => void): void {
  if (port) port.on('message', handle);
  else ipc?.on('message', handle as (message: unknown) => void);
}

async function receiveOptions(): Promise<PGliteThreadOptions> {
  if (port) return workerData as PGliteThreadOptions;
  return new Promise((resolve) => ipc?.once('message', (message) => resolve(message as PGliteThreadOptions)));
}

async function open(options: PGliteThreadOptions): Promise<PGlite> {
  return PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir ? new Blob([options.loadDataDir]) : undefined,
    parsers: Object.fromEntries((options.numberTypes ?? []).map((oid) => [oid, Number])),
    startParams: [...PGlite.defaultStartParams, ...(options.settings ?? []).flatMap((s) => ['-c', s])],
  });
}

const unlisteners = new Map<string, () => Promise<void>>();

async function run(pglite: PGlite, request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const result = await pglite.query(request.sql, request.params);
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    case 'copy':
      await pglite.query(request.sql, [], { blob: new Blob([request.text]) });
      return undefined;
    case 'listen':
      if (!unlisteners.has(request.channel)) {
        const unlisten = await pglite.listen(request.channel, (payload) =>
          send({ kind: 'notify', channel: request.channel, payload }),
        );
        unlisteners.set(request.channel, unlisten);
      }
      return undefined;
    case 'unlisten':
      await unlisteners.get(request.channel)?.();
      unlisteners.delete(request.channel);
      return undefined;
    case 'dump': {
      const dump = new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
      return dump;
    }
    case 'close':
      await pglite.close();
      return undefined;
  }
}

/** In a process: the parent closed the channel (it closed us, or it died). PGlite closes, then the process ends. */
function endWithParent(pglite: PGlite, queue: () => Promise<void>): void {
  // The terminal's Ctrl+C and a service manager's SIGTERM are the parent's to act on: it closes us.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  // Its stdout and stderr are the parent's: a reader of them that went away (EPIPE) is no reason to stop.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  ipc?.once('disconnect', () => {
    setTimeout(() => process.exit(1), ORPHAN_CLOSE_MS).unref();
    void queue()
      .then(() => (pglite.closed ? undefined : pglite.close()))
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}

try {
  const pglite = await open(await receiveOptions());
  // One request at a time, in order: PGlite is one connection.
  let tail = Promise.resolve();
  onRequest((request) => {
    tail = tail.then(async () => {
      try {
        const value = await run(pglite, request);
        const transfer = value instanceof Uint8Array ? (value.buffer as ArrayBuffer) : undefined;
        send({ kind: 'done', id: request.id, value }, transfer);
      } catch (error) {
        send({ kind: 'error', id: request.id, error: toThreadError(error) });
      }
      if (request.op === 'close') port?.close();
    });
  });
  if (ipc) endWithParent(pglite, () => tail);
  send({ kind: 'ready' });
} catch (error) {
  send({ kind: 'failed', error: toThreadError(error) });
  if (ipc) ipc.disconnect?.();
}

function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}
