import { createHash } from 'node:crypto';
import { type Readable, Transform, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * The bytes read from `source`, unchanged, hashed as they pass: a job's upload is hashed by the
 * scrub's own read, not by a second one. `sha256()` is final once the stream has ended.
 */
export function hashedReader(source: Readable): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  source.on('error', (error) => stream.destroy(error));
  stream.on('close', () => {
    if (!source.destroyed && !source.readableEnded) source.destroy();
  });
  source.pipe(stream);
  return { stream, sha256: () => hash.copy().digest('hex') };
}

/**
 * A writer in front of `target` that hashes every chunk on its way: each write completes when the
 * target's does (so a writer that frees written chunks frees them after the target is done with
 * them), and the end completes once the target has finished storing the file.
 */
export function hashedWriter(target: Writable): { stream: Writable; sha256: () => string } {
  const hash = createHash('sha256');
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      target.write(chunk, (error) => done(error ?? null));
    },
    final(done) {
      target.end();
      finished(target).then(() => done(), done);
    },
    destroy(error, done) {
      if (!target.destroyed) target.destroy(error ?? undefined);
      done(error);
    },
  });
  return { stream, sha256: () => hash.copy().digest('hex') };
}
