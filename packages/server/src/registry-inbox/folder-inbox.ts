import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AsideFolder, asideName, type InboxEntry, type InboxFolder } from './inbox-folder.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** A hashing pass-through: what went through it, counted and hashed. */
export function hashingTap() {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { tap, result: () => ({ sha256: hash.digest('hex'), bytes }) };
}

/** The registry inbox as a folder on this machine (the embedded setup). */
export class FolderInbox implements InboxFolder {
  constructor(readonly dir: string) {}

  get where(): string {
    return this.dir;
  }

  async list(): Promise<InboxEntry[]> {
    await mkdir(this.dir, { recursive: true });
    const entries = await readdir(this.dir, { withFileTypes: true });
    const files: InboxEntry[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const found = await stat(join(this.dir, entry.name)).catch(() => null);
      if (found !== null) files.push({ name: entry.name, modifiedAt: found.mtime });
    }
    return files;
  }

  async fetch(name: string, to: string, signal: AbortSignal): Promise<{ sha256: string; bytes: number }> {
    const { tap, result } = hashingTap();
    await pipeline(createReadStream(join(this.dir, name)), tap, createWriteStream(to, { mode: 0o600 }), {
      signal,
    });
    return result();
  }

  async moveAside(name: string, to: AsideFolder, reason: string | null): Promise<string> {
    const folder = join(this.dir, to);
    await mkdir(folder, { recursive: true });
    const target = join(folder, asideName(name, await exists(join(folder, name))));
    if (reason !== null) await writeFile(`${target}.reason.txt`, `${reason}\n`);
    await rename(join(this.dir, name), target);
    return target;
  }

  close(): void {}
}
