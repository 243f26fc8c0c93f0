/**
 * How an upload reports and gives up: shared by the fetch upload (`upload.ts`) and the browser's
 * (`upload-xhr.ts`), in a module of its own so that neither imports the other back.
 */
export interface UploadOptions {
  /**
   * Called as bytes are handed to the connection. `totalBytes` is known for a path and for bytes,
   * and undefined for a stream.
   */
  onProgress?(sentBytes: number, totalBytes: number | undefined): void;
  signal?: AbortSignal;
  /**
   * Milliseconds the upload may stall (no byte taken, or no answer once all are sent) before it is
   * given up. Default: the client's `timeout`. A large file takes as long as it needs.
   */
  timeout?: number;
}
