import type { FileHandle } from 'node:fs/promises';
import { open, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Writes a file under a scratch name and hands it to `commit` (which moves it into place) when
 * ended; destroyed before that, it leaves nothing behind. Each write's callback runs once the
 * bytes are in the file, so the writer never holds a chunk after that: the caller may reuse or
 * free it.
 */
export class AtomicFileWriter extends Writable {
  bytesWritten = 0;
  #handle: FileHandle | null = null;

  constructor(
    private readonly scratch: Promise<string>,
    private readonly commit: (scratch: string) => Promise<void>,
  ) {
    // Chunks that arrive while a write is under way gather, up to 1 MiB, and go in one writev.
    super({ highWaterMark: 1 << 20 });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    this.scratch
      .then((path) => open(path, 'wx', 0o600))
      .then((handle) => {
        this.#handle = handle;
        callback();
      }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#writeAll([chunk]).then(() => callback(), callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.#writeAll(chunks.map(({ chunk }) => chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const handle = this.#handle!;
    this.#handle = null;
    handle
      .close()
      .then(async () => this.commit(await this.scratch))
      .then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.#handle;
    this.#handle = null;
    // After a commit the scratch name is gone and this removes nothing.
    Promise.resolve(handle?.close())
      .catch(() => {})
      .then(async () => rm(await this.scratch, { force: true }))
      .then(
        () => callback(error),
        () => callback(error),
      );
  }

  async #writeAll(chunks: Buffer[]): Promise<void> {
    for (let pending = chunks; pending.length > 0; ) {
      const { bytesWritten } = await this.#handle!.writev(pending);
      this.bytesWritten += bytesWritten;
      pending = rest(pending, bytesWritten);
    }
  }
}

/** What `writev` did not write: a short write leaves the tail of the chunks. */
function rest(chunks: Buffer[], written: number): Buffer[] {
  let skip = written;
  const left: Buffer[] = [];
  for (const chunk of chunks) {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      continue;
    }
    left.push(skip > 0 ? chunk.subarray(skip) : chunk);
    skip = 0;
  }
  return left;
}
