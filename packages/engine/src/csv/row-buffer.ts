const EMPTY = Buffer.alloc(0);

/**
 * Gathers a stream's chunks into buffers of whole rows: each step scans what has come, and the
 * unfinished row at its end is carried into the next. A long row is rescanned at each step until
 * it ends, so a step waits for at least as many new bytes as are carried: the rescans of a row
 * cost at most twice its length, whatever the chunk size.
 *
 * Chunks are copied into one buffer kept for the whole stream, behind what was carried: a chunk is
 * free to be reused or released as soon as `add` returns, and a file leaves no garbage behind per
 * chunk. What `add` and `finish` return is valid until the next `add`.
 */
export class RowBuffer {
  #bytes: Buffer = EMPTY;
  /** Bytes at the start of #bytes: the carried row, then chunks added since the last step. */
  #length = 0;
  #carried = 0;

  /** Adds a chunk; returns the bytes to scan when there are enough, else null. */
  add(chunk: Uint8Array): Buffer | null {
    const length = this.#length + chunk.length;
    if (length > this.#bytes.length) {
      // Room for the next chunk too, so that a steady stream grows the buffer once.
      const grown = Buffer.allocUnsafeSlow(Math.max(length + chunk.length, 2 * this.#bytes.length));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.#length);
    this.#length = length;
    return length - this.#carried < this.#carried ? null : this.#bytes.subarray(0, length);
  }

  /** What is left at the end of the input: the last step. */
  finish(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }

  /** Keeps what a step did not use (an unfinished row) for the next. */
  carry(buf: Buffer, used: number): void {
    this.#bytes.copyWithin(0, used, buf.length);
    this.#length = buf.length - used;
    this.#carried = this.#length;
  }
}
