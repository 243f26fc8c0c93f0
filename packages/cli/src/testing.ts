import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll } from 'vitest';
import { run } from './program.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const root = mkdtempSync(join(tmpdir(), 'scrub-cli-test-'));
// Registered while the importing test file is collected, so it runs after that file's tests.
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh config directory, so a test never reads or writes the real ~/.config/scrub. */
export function tempConfigDir(): string {
  return mkdtempSync(join(root, 'config-'));
}

/** Runs `scrub <args>` in-process with captured streams and only the environment given. */
export async function scrub(
  args: string[],
  env: NodeJS.ProcessEnv,
  { stdin = '', stdinIsTTY = false }: { stdin?: string; stdinIsTTY?: boolean } = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const input = Object.assign(Readable.from([stdin]), { isTTY: stdinIsTTY });
  const code = await run(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    stdin: input,
    env,
  });
  return { code, stdout, stderr };
}
