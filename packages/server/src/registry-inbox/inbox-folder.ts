/** A file waiting in the registry inbox. */
export interface InboxEntry {
  name: string;
  modifiedAt: Date;
}

/** Where a file goes once read: `imported/` or `rejected/` beside the files waiting. */
export type AsideFolder = 'imported' | 'rejected';

/**
 * The registry inbox's storage, a folder or an S3 prefix: what waits there, a copy of one file,
 * and moving a file aside once it is done with. Every call ends by `signal` at the latest.
 */
export interface InboxFolder {
  /** For messages: the folder's path, or `s3://bucket/prefix`. */
  readonly where: string;
  /** The files waiting, not those in `imported/` and `rejected/`. */
  list(signal: AbortSignal): Promise<InboxEntry[]>;
  /** Copies the file to `to` (a local path) and hashes the bytes copied: the import reads that copy. */
  fetch(name: string, to: string, signal: AbortSignal): Promise<{ sha256: string; bytes: number }>;
  /** Moves the file into `imported/` or `rejected/` (with `<name>.reason.txt` when there is a reason); where it went. */
  moveAside(name: string, to: AsideFolder, reason: string | null, signal: AbortSignal): Promise<string>;
  close(): void;
}

/** A name for a file moved aside that no earlier one has: its own, or with the time in front. */
export function asideName(name: string, taken: boolean, now = new Date()): string {
  return taken
    ? `${now
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z')}-${name}`
    : name;
}
