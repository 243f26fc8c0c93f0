import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** An upload in parts under way: the job it is for and its id, enough to resume it. */
export interface PendingUpload {
  jobId: string;
  uploadId: string;
}

/**
 * Uploads in parts that have not finished, kept beside the config file (`uploads.json`, owner
 * only), so that `scrub bulk FILE` run again after being killed resumes instead of starting over.
 * Each is keyed by the file (its full path, size and modification time: an edited file starts
 * anew), the service and profile, and the job's settings (another --phone-col is another job).
 */
export class UploadState {
  readonly #path: string;

  constructor(configPath: string) {
    this.#path = join(dirname(configPath), 'uploads.json');
  }

  static async keyOf(file: string, where: string, settings: unknown): Promise<string> {
    const path = resolve(file);
    const { size, mtimeMs } = await stat(path);
    return createHash('sha256')
      .update(JSON.stringify([path, size, mtimeMs, where, settings]))
      .digest('hex');
  }

  async get(key: string): Promise<PendingUpload | undefined> {
    return (await this.#read())[key];
  }

  async set(key: string, upload: PendingUpload): Promise<void> {
    const all = await this.#read();
    all[key] = upload;
    await this.#write(all);
  }

  async delete(key: string): Promise<void> {
    const all = await this.#read();
    if (!(key in all)) return;
    delete all[key];
    await this.#write(all);
  }

  async #read(): Promise<Record<string, PendingUpload>> {
    try {
      return JSON.parse(await readFile(this.#path, 'utf8')) as Record<string, PendingUpload>;
    } catch {
      // None yet, or damaged: an upload not found starts over, which is only slower.
      return {};
    }
  }

  /** Written aside and renamed into place: a kill mid-write leaves the old file whole. */
  async #write(all: Record<string, PendingUpload>): Promise<void> {
    await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
    const scratch = `${this.#path}.${randomUUID()}`;
    await writeFile(scratch, JSON.stringify(all), { mode: 0o600 });
    await rename(scratch, this.#path);
  }
}
