import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The published packages as a user gets them: `pnpm pack` (which rewrites `workspace:` and
 * `catalog:`), then `npm install` outside the workspace, third-party dependencies from the registry.
 * The CLI goes in globally (`npm i -g`, here into a temporary prefix) and runs as `scrub`; the SDK
 * and the server go into a project of their own, where the server starts with `npx scrub-server
 * start` and the SDK is imported from ESM and CommonJS and type-checked. Node: whichever runs the
 * tests (24 in CI).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const consumerDir = fileURLToPath(new URL('../consumer/', import.meta.url));
const run = promisify(execFile);

/**
 * The publishable packages, by directory; @scrub/contract and @scrub/engine are the others'
 * dependencies, @scrub/stripe-local and @scrub/cognito-local the server's built-in providers, and
 * @scrub/pglite-pool the embedded database under the server and both of them.
 */
const PACKAGES = [
  'contract',
  'engine',
  'sdk',
  'cli',
  'pglite-pool',
  'stripe-local',
  'cognito-local',
  'server',
] as const;
type PackageDir = (typeof PACKAGES)[number];

interface Manifest {
  name: string;
  version: string;
  license?: string;
  engines?: { node?: string };
  bin?: Record<string, string>;
  main?: string;
  module?: string;
  types?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
}

const manifestOf = (dir: PackageDir): Manifest =>
  JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest;

/** What `pnpm pack` names a package's tarball: `@scrub/cli` 0.1.0 is scrub-cli-0.1.0.tgz. */
const tarballName = ({ name, version }: Manifest) =>
  `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** pnpm as the test run was started (`pnpm test`), else the project's `npx -y pnpm@10`. */
function pnpm(args: string[], cwd: string) {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(execPath)
    ? run(process.execPath, [execPath, ...args], { cwd })
    : run('npx', ['-y', 'pnpm@10', ...args], { cwd });
}

// npm's own cache (~/.npm), shared with every other install on the machine: a second run, or a new
// clone, installs the third-party dependencies from it without asking the registry.
const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

const work = mkdtempSync(join(tmpdir(), 'scrub-packaging-'));
const tarballs = join(work, 'tarballs');
const globalPrefix = join(work, 'global');
const project = join(work, 'project');
const configDir = join(work, 'config');
const dataDir = join(work, 'data');
const tarball = (dir: PackageDir) => join(tarballs, tarballName(manifestOf(dir)));

/**
 * The machine's environment (npm's registry settings and certificates among them) without what the
 * workspace and the test run add: no npm_* or pnpm settings, no SCRUB_* settings, and the temporary
 * global prefix first on PATH, then this Node, and the workspace's own bin directories off it.
 */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(npm_|pnpm_|PNPM_|SCRUB_|VITEST|NODE_OPTIONS$)/i.test(key),
    ),
  );
  return {
    ...inherited,
    PATH: [
      join(globalPrefix, 'bin'),
      // The Node running the tests runs npm, npx and the binaries (Node 24 in CI).
      dirname(process.execPath),
      ...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(root)),
    ].join(delimiter),
    SCRUB_CONFIG_DIR: configDir,
    NO_COLOR: '1',
    ...extra,
  };
}

/** A port the system just handed out and took back. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitForHealth(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`scrub-server exited (${server.exitCode}):\n${log()}`);
    const ok = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`scrub-server did not answer /health within 90 s:\n${log()}`);
}

let server: ChildProcess | undefined;
let serverUrl = '';
let serverLog = '';

beforeAll(async () => {
  // The CLI has no library entry, so no types: its binary is what it ships.
  const builtFile = (dir: PackageDir) =>
    join(root, 'packages', dir, 'dist', dir === 'cli' ? 'bin.js' : 'index.d.ts');
  const missing = PACKAGES.filter((dir) => !existsSync(builtFile(dir)));
  if (missing.length > 0) {
    throw new Error(
      `Not built with types: ${missing.join(', ')}. Build first: npx -y pnpm@10 -r --filter '!dashboard' run build`,
    );
  }
  mkdirSync(tarballs, { recursive: true });
  // What is built is packed: ignore-scripts skips the prepack build, which would empty dist/ under
  // the other test files that run the binaries meanwhile.
  await Promise.all(
    PACKAGES.map((dir) =>
      pnpm(
        ['pack', '--config.ignore-scripts=true', '--pack-destination', tarballs],
        join(root, 'packages', dir),
      ),
    ),
  );

  mkdirSync(project, { recursive: true });
  cpSync(consumerDir, project, { recursive: true });
  await Promise.all([
    // `npm i -g` the CLI, with the unpublished @scrub packages it needs given as tarballs too.
    run(
      'npm',
      [
        'install',
        '--global',
        `--prefix=${globalPrefix}`,
        ...npmFlags,
        ...(['contract', 'engine', 'sdk', 'cli'] as const).map(tarball),
      ],
      { cwd: work, env: environment() },
    ),
    run(
      'npm',
      [
        'install',
        ...npmFlags,
        ...(
          ['contract', 'engine', 'sdk', 'pglite-pool', 'stripe-local', 'cognito-local', 'server'] as const
        ).map(tarball),
        // For the type check of the consumer files only.
        '@types/node@24',
      ],
      { cwd: project, env: environment() },
    ),
  ]);

  const port = await freePort();
  serverUrl = `http://127.0.0.1:${port}`;
  server = spawn('npx', ['--no', 'scrub-server', 'start'], {
    cwd: project,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: environment({
      SCRUB_DATA_DIR: dataDir,
      SCRUB_PORT: String(port),
      SCRUB_LOG_LEVEL: 'warn',
      // The test run's empty database cluster, made once (docs/architecture.md); not a setting users need.
      ...(process.env.SCRUB_TEST_PGLITE_TEMPLATE
        ? { SCRUB_TEST_PGLITE_TEMPLATE: process.env.SCRUB_TEST_PGLITE_TEMPLATE }
        : {}),
    }),
  });
  server.stdout?.on('data', (chunk: Buffer) => {
    serverLog += chunk.toString();
  });
  server.stderr?.on('data', (chunk: Buffer) => {
    serverLog += chunk.toString();
  });
  await waitForHealth(serverUrl, server, () => serverLog);
});

afterAll(async () => {
  const child = server;
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // npx runs the server as its child: the group it leads goes down together.
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

/** The paths a manifest names: main, module, types, bin and every `exports` target. */
function namedPaths(manifest: Manifest): string[] {
  const paths: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') paths.push(value);
    else if (value && typeof value === 'object') for (const inner of Object.values(value)) walk(inner);
  };
  walk([manifest.main, manifest.module, manifest.types, manifest.bin, manifest.exports]);
  return paths;
}

describe('the packed packages', () => {
  it.each(PACKAGES)(
    '%s: README, LICENSE, engines, registry versions, and every path its manifest names',
    (dir) => {
      const installed = join(
        dir === 'cli' ? join(globalPrefix, 'lib', 'node_modules') : join(project, 'node_modules'),
        manifestOf(dir).name,
      );
      const packed = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
      const files = readdirSync(installed);
      expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json', 'dist']));
      expect(packed.license).toBe('MIT');
      expect(packed.engines?.node).toBe('>=22');
      expect(JSON.stringify(packed)).not.toMatch(/workspace:|catalog:|@scrub\/source|"\.\/src\//);
      for (const path of namedPaths(packed)) expect(existsSync(join(installed, path)), path).toBe(true);
      // Nothing but the build, the README and the license: no sources, tests or configs.
      expect(files.filter((file) => !['node_modules'].includes(file)).sort()).toEqual(
        ['LICENSE', 'README.md', 'dist', 'package.json'].sort(),
      );
    },
  );
});

describe('the CLI installed with npm i -g', () => {
  it('runs as scrub and prints its version', async () => {
    const { stdout } = await run('scrub', ['--version'], { env: environment() });
    expect(stdout.trim()).toBe(manifestOf('cli').version);
  });

  it('lists the plans of the installed server', async () => {
    const { stdout } = await run('scrub', ['--json', 'plans'], {
      env: environment({ SCRUB_API_URL: serverUrl }),
    });
    const plans = JSON.parse(stdout) as { plan_name: string }[];
    expect(plans.map((plan) => plan.plan_name)).toContain('FLEXIBLE CREDITS');
  });
});

describe('the SDK installed with npm install', () => {
  const expected = {
    status: 'ok',
    version: manifestOf('server').version,
    payments: 'local',
    apiError: 'function',
  };

  it('is imported from an ES module and talks to the server started with npx scrub-server start', async () => {
    const { stdout } = await run(process.execPath, ['esm-consumer.mjs'], {
      cwd: project,
      env: environment({ SCRUB_API_URL: serverUrl }),
    });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('is required from CommonJS', async () => {
    const { stdout } = await run(process.execPath, ['cjs-consumer.cjs'], {
      cwd: project,
      env: environment({ SCRUB_API_URL: serverUrl }),
    });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('has types for ES module and CommonJS consumers', async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result).toEqual({ code: 0, stdout: '' });
  });
});
