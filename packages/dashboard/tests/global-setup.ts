import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time under a directory (or of a file). */
function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The service serves dist: build it when it is missing or older than the source. */
export default function setup(): void {
  const built = join(root, 'dist', 'index.html');
  const sources = ['src', 'public', 'index.html', 'vite.config.ts'].map((name) => newest(join(root, name)));
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources)) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would give React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
