import type { IncomingMessage } from 'node:http';

/** The most of a refused body read and thrown away before the refusal is sent. */
export const DISCARD_MAX_BYTES = 16 * 1024 * 1024;
/** The longest a refusal waits for the rest of a body. */
export const DISCARD_MAX_MS = 10_000;

/**
 * Reads and throws away what is left of a request's body, up to `maxBytes` or `maxMs`, whichever
 * comes first. A refusal sent while the client is still writing (a 413 for a body over the limit)
 * is followed by the socket's close, and a client still writing then meets EPIPE or ECONNRESET
 * before it reads the answer: drained first, the client finishes writing and reads the refusal.
 * A body larger than the bound still gets its answer as soon as the bound is reached.
 */
export function discardBody(
  raw: IncomingMessage,
  maxBytes = DISCARD_MAX_BYTES,
  maxMs = DISCARD_MAX_MS,
): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('error', done);
      raw.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done();
    };
    const timer = setTimeout(done, maxMs);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}
