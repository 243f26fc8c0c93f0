import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** The address from the banner, `http://localhost:<port>`. */
  url: string;
  dataDir: string;
  /** Sends SIGTERM, as a service manager or Ctrl+C would, and resolves with how the process ended. */
  stop(): Promise<Exit>;
  /** Sends SIGKILL (`kill -9`): the process dies at once, as in a crash, with no chance to clean up. */
  kill(): Promise<Exit>;
}

// Generous: a fresh data directory is migrated first, and CI machines are often shared and slow.
const STARTUP_TIMEOUT_MS = 60_000;
// Up to the blank after the address, so a banner split across two reads is not taken half-read.
const BANNER = /Scrub is running at (http:\/\/\S+)\s/;

const root = mkdtempSync(join(tmpdir(), 'scrub-e2e-'));
const running = new Set<ServerProcess>();

// Registered while the importing test file is collected, so it runs after that file's own hooks:
// servers a test left running get the same SIGTERM a user would send, then the files go.
afterAll(async () => {
  await Promise.all([...running].map((server) => server.stop()));
  rmSync(root, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  return mkdtempSync(join(root, prefix));
}

/** The file a workspace package's `bin` entry names, as installed: its build in dist/ (require-build.ts checks it is there). */
function binPath(packageName: string, command: string): string {
  const dir = fileURLToPath(new URL(`../node_modules/${packageName}/`, import.meta.url));
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const relative = bin[command];
  if (!relative) throw new Error(`${packageName} declares no "${command}" binary`);
  return join(dir, relative);
}

/**
 * Only what the programs need: a DATABASE_URL, NODE_ENV or SCRUB_* setting from the machine running
 * the tests must not switch the server to another database or the CLI to another API. The test
 * run's empty PGlite cluster goes along, so a server in a new data directory skips initdb, and so
 * does SCRUB_EMBEDDED_DATABASE (where the embedded database runs), so that the suite runs each way.
 */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, SCRUB_TEST_PGLITE_TEMPLATE, SCRUB_EMBEDDED_DATABASE } = process.env;
  return { PATH, SCRUB_TEST_PGLITE_TEMPLATE, SCRUB_EMBEDDED_DATABASE, NO_COLOR: '1', ...extra };
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string; exit: Promise<Exit> } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exit = new Promise<Exit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { stdout: () => stdout, stderr: () => stderr, exit };
}

async function run(file: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<RunResult> {
  const stdin = input === undefined ? 'ignore' : 'pipe';
  const child = spawn(process.execPath, [file, ...args], { env, stdio: [stdin, 'pipe', 'pipe'] });
  // A program may exit without reading all of it (a refused option): its exit code says what happened.
  child.stdin?.on('error', () => {});
  child.stdin?.end(input);
  const output = collect(child);
  const { code } = await output.exit;
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

export interface ScrubOptions {
  /** Piped to stdin, as `printf '%s\n' "$PASSWORD" | scrub ...` does; without it stdin is empty. */
  input?: string;
  /** More settings, such as `SCRUB_API_KEY`. */
  env?: Record<string, string>;
}

/** `scrub <args>` from the built CLI, with a fresh config directory unless one is given. */
export function scrub(
  args: string[],
  configDir = tempDir('config-'),
  { input, env = {} }: ScrubOptions = {},
): Promise<RunResult> {
  return run(
    binPath('@scrub/cli', 'scrub'),
    args,
    environment({ ...env, SCRUB_CONFIG_DIR: configDir }),
    input,
  );
}

/** `scrub-server <args>` from the built server, on the embedded database in `dataDir`. */
export function scrubServer(args: string[], dataDir: string): Promise<RunResult> {
  return run(binPath('@scrub/server', 'scrub-server'), args, environment({ SCRUB_DATA_DIR: dataDir }));
}

/** `scrub-server start` on a free port; resolves once the banner gives the address. */
export async function startServer(
  dataDir = tempDir('data-'),
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const { TEST_LIMITS } = await import('@scrub/test-support/local-server');
  const child = spawn(process.execPath, [binPath('@scrub/server', 'scrub-server'), 'start'], {
    env: environment({
      // The suites sign up many accounts and check numbers fast from 127.0.0.1: the limits are
      // raised, not switched off (@scrub/test-support's TEST_LIMITS).
      ...TEST_LIMITS,
      ...env,
      SCRUB_DATA_DIR: dataDir,
      SCRUB_PORT: '0',
      SCRUB_LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const printed = () => `stdout:\n${output.stdout()}\nstderr:\n${output.stderr()}`;

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`scrub-server printed no banner within ${STARTUP_TIMEOUT_MS} ms\n${printed()}`));
    }, STARTUP_TIMEOUT_MS);
    child.stderr?.on('data', () => {
      const match = BANNER.exec(output.stderr());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    output.exit.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`scrub-server exited (${signal ?? code}) before it was ready\n${printed()}`));
    }, reject);
  });

  let stopping: Promise<Exit> | undefined;
  const end = (signal: NodeJS.Signals) => {
    stopping ??= (async () => {
      child.kill(signal);
      const exit = await output.exit;
      running.delete(server);
      return exit;
    })();
    return stopping;
  };
  const server: ServerProcess = {
    url,
    dataDir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
  running.add(server);
  return server;
}
