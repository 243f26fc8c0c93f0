import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
// Type imports only: from source (tests), Node runs this file as it is, with no other of ours to load.
import type { PGliteThreadOptions, Reply, Request, ThreadError } from './pglite-thread-protocol.js';

/**
 * PGlite on a thread of its own (`PGliteThread` starts it): runs each request in the order it
 * came, answers it, and passes on each `NOTIFY` on a channel the caller listens to.
 */
const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread (PGliteThread starts it).');

const options = workerData as PGliteThreadOptions;
const send = (reply: Reply) => port.postMessage(reply);

async function open(): Promise<PGlite> {
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

try {
  const pglite = await open();
  // One request at a time, in order: PGlite is one connection.
  let tail = Promise.resolve();
  port.on('message', (request: Request) => {
    tail = tail.then(async () => {
      try {
        const value = await run(pglite, request);
        if (value instanceof Uint8Array) {
          port.postMessage({ kind: 'done', id: request.id, value } satisfies Reply, [
            value.buffer as ArrayBuffer,
          ]);
        } else {
          send({ kind: 'done', id: request.id, value });
        }
      } catch (error) {
        send({ kind: 'error', id: request.id, error: toThreadError(error) });
      }
      if (request.op === 'close') port.close();
    });
  });
  send({ kind: 'ready' });
} catch (error) {
  send({ kind: 'failed', error: toThreadError(error) });
}

function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}
