/** Where the service keeps its state: settings read by `config.ts`, used by `storage/` and `blob-store/`. */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** `dataDir` null keeps the database in memory (tests). */
  | { kind: 'pglite'; dataDir: string | null };

/** Where files live: a directory on this machine (embedded default) or an S3-compatible bucket. */
export type BlobStoreTarget =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible store's URL; null for Amazon S3. */
      endpoint: string | null;
      /** `endpoint/bucket/key` instead of `bucket.endpoint/key`, which most S3-compatible stores need. */
      forcePathStyle: boolean;
    };
