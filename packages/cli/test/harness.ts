import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunningServer } from '@scrub/server';
import { afterAll, expect } from 'vitest';
import type { Prompter } from '../src/io.js';
import { run } from '../src/program.js';

export type { RunningServer };

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The questions asked, when the test scripted answers. */
  prompts?: string[];
}

/** For runs that must never ask: any question fails the test. */
export const refusingPrompter: Prompter = {
  input: (message) => Promise.reject(new Error(`unexpected prompt: ${message}`)),
  password: (message) => Promise.reject(new Error(`unexpected prompt: ${message}`)),
  confirm: (message) => Promise.reject(new Error(`unexpected prompt: ${message}`)),
  select: (message) => Promise.reject(new Error(`unexpected prompt: ${message}`)),
};

/**
 * A scripted answer: text typed, a yes or no, or the value of the choice picked; or, for what the
 * command showed first (a new authenticator's key), the text typed after reading its stderr so far.
 */
type Answer = string | boolean | number | ((stderr: string) => string);

/** Answers questions in order, and records them. */
function scriptedPrompter(answers: Answer[], asked: string[], stderr: () => string): Prompter {
  const next = (message: string) => {
    asked.push(message);
    if (answers.length === 0) return Promise.reject(new Error(`no answer scripted for: ${message}`));
    const answer = answers.shift()!;
    return Promise.resolve(typeof answer === 'function' ? answer(stderr()) : answer);
  };
  return {
    input: (message) => next(message).then(String),
    password: (message) => next(message).then(String),
    confirm: (message) => next(message).then(Boolean),
    // The answer is the chosen value itself.
    select: <T>(message: string) => next(message) as Promise<T>,
  };
}

const root = mkdtempSync(join(tmpdir(), 'scrub-cli-test-'));
// Registered while the importing test file is collected, so it runs after that file's tests.
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh config directory, so a test never reads or writes the real ~/.config/scrub. */
export function tempConfigDir(): string {
  return mkdtempSync(join(root, 'config-'));
}

/**
 * Runs `scrub <args>` in-process with captured streams and only the environment given. With
 * `answers`, stdin is a terminal and the questions asked are answered in order and returned.
 * With `tty`, stdout and stderr say they are a terminal, as when a person runs the command.
 */
export async function scrub(
  args: string[],
  env: NodeJS.ProcessEnv,
  {
    stdin = '',
    stdinIsTTY = false,
    tty = false,
    answers,
  }: { stdin?: string; stdinIsTTY?: boolean; tty?: boolean; answers?: Answer[] } = {},
): Promise<RunResult> {
  // Downloads write bytes: kept as they come, decoded once at the end.
  const stdout: Buffer[] = [];
  let stderr = '';
  const asked: string[] = [];
  const input = Object.assign(Readable.from([stdin]), { isTTY: answers ? true : stdinIsTTY });
  const code = await run(args, {
    stdout: { write: (chunk: string | Uint8Array) => stdout.push(Buffer.from(chunk)), isTTY: tty },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: tty },
    stdin: input,
    env,
    prompter: answers ? scriptedPrompter([...answers], asked, () => stderr) : refusingPrompter,
  });
  const out = Buffer.concat(stdout).toString();
  return answers ? { code, stdout: out, stderr, prompts: asked } : { code, stdout: out, stderr };
}

/**
 * The real service in this process, on a free port and an embedded database in `dataDir`, where
 * `scrub-server credits grant` (`grantCredits`) reaches it through its operator channel, as an
 * operator would. For tests that need no credits, @scrub/test-support's `startLocalServer` (in
 * memory, without that channel) is enough.
 */
export async function startServerOnDisk(dataDir: string): Promise<RunningServer> {
  // Imported here, so that tests of what scrub loads (lazy-loading.test.ts) do not load the service.
  const { loadConfig, startServer } = await import('@scrub/server');
  const { TEST_LIMITS } = await import('@scrub/test-support/local-server');
  // The suites sign up many accounts and check numbers fast from 127.0.0.1: the limits are
  // raised, not switched off.
  return startServer(loadConfig({ SCRUB_DATA_DIR: dataDir, ...TEST_LIMITS }, { port: 0 }), false);
}

/** The built `scrub-server` binary, as the installed package's `bin` names it. */
function serverBin(): string {
  const dir = fileURLToPath(new URL('../node_modules/@scrub/server/', import.meta.url));
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const relative = bin['scrub-server'];
  if (!relative) throw new Error('@scrub/server declares no scrub-server binary');
  return join(dir, relative);
}

/**
 * Gives credits the way an operator does: `scrub-server credits grant`, which reaches the server
 * holding the embedded database in `dataDir` through its operator channel.
 */
export async function grantCredits(dataDir: string, email: string, credits: number): Promise<void> {
  await promisify(execFile)(process.execPath, [serverBin(), 'credits', 'grant', email, String(credits)], {
    env: { PATH: process.env.PATH, SCRUB_DATA_DIR: dataDir },
  });
}

let accounts = 0;

/**
 * A CI job's environment: a new account signed up, confirmed and given an API key with the CLI,
 * granted `credits`, then only the key, in a config directory that has never seen the session.
 */
export async function apiKeyAccount(
  server: RunningServer,
  dataDir: string,
  credits: number,
): Promise<NodeJS.ProcessEnv> {
  const { latestCode } = await import('@scrub/test-support/local-server');
  const email = `account${++accounts}.${Date.now()}@example.com`;
  const password = 'Correct-Horse-9';
  const env: NodeJS.ProcessEnv = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url };
  const steps = [
    () => scrub(['signup', '--email', email, '--password-stdin'], env, { stdin: `${password}\n` }),
    async () => scrub(['confirm', '--email', email, '--code', await latestCode(server, email)], env),
    () => scrub(['login', '--email', email, '--password-stdin'], env, { stdin: `${password}\n` }),
  ];
  for (const step of steps) {
    const result = await step();
    expect(result.code, result.stderr).toBe(0);
  }
  const rotate = await scrub(['key', 'rotate', '--yes', '--no-save'], env);
  expect(rotate.code, rotate.stderr).toBe(0);
  if (credits > 0) await grantCredits(dataDir, email, credits);
  return {
    SCRUB_CONFIG_DIR: tempConfigDir(),
    SCRUB_API_URL: server.url,
    SCRUB_API_KEY: rotate.stdout.trim(),
  };
}
