#!/usr/bin/env node
// The README's commands land here: `pnpm start`, `pnpm test`, `pnpm bench`.
// This file has no dependencies and runs on any Node from 18, because it is what makes a machine
// with an old Node able to run the project: the project needs Node 22+, and where the machine's
// Node is older we bring Node 24 from the npm registry's `node` package into `.tools/` (once) and
// re-run under it (a warm `start` runs only the service under it). A machine with Node 22 or newer
// downloads nothing.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
const rest = process.argv.slice(3);
const MIN_NODE = 22;
const BUNDLED_NODE = '24';

function log(message) {
  process.stderr.write(`[scrub] ${message}\n`);
}

// SCRUB_LOG_LEVEL=debug (or trace) logs each step's time: milliseconds since the epoch, so the
// steps of this process, the one it re-runs under Node 24 and the service line up.
const debug = ['debug', 'trace'].includes(process.env.SCRUB_LOG_LEVEL ?? '');
function step(name) {
  if (debug) log(`${Date.now()} ${name}`);
}
step(`dev.mjs started under Node ${process.versions.node}`);

function run(file, args, options = {}) {
  const result = spawnSync(file, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const oldNode = Number(process.versions.node.split('.')[0]) < MIN_NODE;
const bundledPrefix = join(root, '.tools', `node${BUNDLED_NODE}`);
const bundledBinDir = join(bundledPrefix, 'node_modules', '.bin');
const bundledNode = join(bundledBinDir, process.platform === 'win32' ? 'node.cmd' : 'node');

function ensureModernNode() {
  if (!oldNode) return;
  if (!existsSync(bundledNode)) {
    log(
      `Node ${process.versions.node} is older than ${MIN_NODE}; fetching Node ${BUNDLED_NODE} from the npm registry into .tools/ (once).`,
    );
    mkdirSync(bundledPrefix, { recursive: true });
    run('npm', [
      'install',
      '--prefix',
      bundledPrefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node@${BUNDLED_NODE}`,
    ]);
  }
  const env = { ...process.env, PATH: `${bundledBinDir}${delimiter}${process.env.PATH ?? ''}` };
  const result = spawnSync(bundledNode, process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}

// pnpm itself: the copy that launched us (npm_execpath), run by the current (modern) Node.
function pnpmCommand(args) {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath, ...args]];
  return ['npx', ['-y', 'pnpm@10', ...args]];
}

function pnpm(args) {
  run(...pnpmCommand(args));
}

/** pnpm beside what runs next: resolves with its exit code; stopped if this script exits first. */
function pnpmBeside(args) {
  const child = spawn(...pnpmCommand(args), { stdio: 'inherit', cwd: root });
  process.on('exit', () => child.kill());
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolvePromise(code ?? 1));
  });
}

function installNeeded() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  return !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
}

function installIfNeeded() {
  if (installNeeded()) {
    log('Installing dependencies...');
    const lock = join(root, 'pnpm-lock.yaml');
    pnpm(['install', existsSync(lock) ? '--frozen-lockfile' : '--no-frozen-lockfile']);
  }
}

/** The vitest projects of `test:quick`. */
const QUICK_PROJECTS = [
  'contract',
  'engine',
  'sdk',
  'architecture',
  'pglite-pool',
  'stripe-local',
  'cognito-local',
  'dashboard-components',
];

const serverEnv = {
  ...process.env,
  SCRUB_DATA_DIR: process.env.SCRUB_DATA_DIR ?? join(root, '.data'),
  // Node keeps the service's compiled modules here (from Node 22.1): a second start loads them
  // about a fifth faster. Node checks each file's contents, so a change is never served stale.
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules', '.cache', 'node-compile-cache'),
};
const bin = (pkg) => join(root, 'packages', pkg, 'dist', 'bin.js');

// The repository's own commands run from dist/; build once when it is missing.
function runBin(pkg, args, env = process.env) {
  if (!existsSync(bin(pkg))) pnpm(['run', 'build']);
  run(process.execPath, [bin(pkg), ...args], { env, cwd: process.env.INIT_CWD ?? root });
}

// What the JavaScript builds are made from: every file of every package but its output, its
// dependencies and its tests, and the lockfile. Stat only (path, size, mtime), so it takes
// milliseconds; a change anywhere rebuilds everything, which is what a one-line stamp can promise.
function buildInputsFingerprint() {
  const hash = createHash('sha256');
  const skip = new Set(['dist', 'node_modules', 'tests', 'test', '.turbo', 'coverage']);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) walk(path);
      } else if (!/\.test\.tsx?$/.test(entry.name)) {
        const stat = statSync(path);
        hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  walk(join(root, 'packages'));
  for (const file of ['pnpm-lock.yaml', 'tsconfig.base.json']) {
    if (existsSync(join(root, file))) hash.update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

// `pnpm start` twice with nothing changed builds once: the stamp says what the last build was made from.
const stamp = join(root, 'node_modules', '.cache', 'scrub-build-js.stamp');

function builtFrom(fingerprint) {
  const outputs = [bin('server'), bin('cli'), join(root, 'packages', 'dashboard', 'dist', 'index.html')];
  const built = outputs.every((output) => existsSync(output));
  return built && existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint;
}

function buildJsIfChanged() {
  const fingerprint = buildInputsFingerprint();
  step('build fingerprint taken');
  if (builtFrom(fingerprint)) {
    log('Nothing changed since the last build: starting the built service.');
    return;
  }
  pnpm(['-r', '--if-present', 'run', 'build:js']);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, fingerprint);
}

// A warm `start` on an old Node (nothing to install, nothing changed since the last build) runs
// the service under the bundled Node at once, instead of running this script again under it first.
if (command === 'start' && oldNode && existsSync(bundledNode) && !installNeeded()) {
  const fingerprint = buildInputsFingerprint();
  step('build fingerprint taken');
  if (builtFrom(fingerprint)) {
    log('Nothing changed since the last build: starting the built service.');
    run(bundledNode, [bin('server'), 'start', ...rest], { env: serverEnv });
    process.exit(0);
  }
}

ensureModernNode();
installIfNeeded();
step('install checked');

switch (command) {
  case 'start':
    buildJsIfChanged();
    run(process.execPath, [bin('server'), 'start', ...rest], { env: serverEnv });
    break;
  case 'scrub':
    runBin('cli', rest);
    break;
  case 'scrub-server':
    runBin('server', rest, serverEnv);
    break;
  case 'test':
    // Tests read the packages' src/. The published packages are built whole (with their types), for
    // the binaries the e2e tests run and the tarballs the packaging test packs; the dashboard's
    // JavaScript only, for the server to serve.
    // The type check reads the sources too, so it runs beside the builds (one program each, on two cores).
    {
      const typecheck = pnpmBeside(['run', 'typecheck']);
      pnpm(['-r', '--filter', '!dashboard', '--if-present', 'run', 'build']);
      pnpm(['--filter', 'dashboard', 'run', 'build:js']);
      pnpm(['run', 'lint']);
      const code = await typecheck;
      if (code !== 0) process.exit(code);
    }
    // Two files at a time. Vitest's default is cores - 1 (one file at a time on a 2-core machine),
    // and with `projects` it ignores `maxWorkers` in the root config (each project sizes its own
    // pool): only the command-line flag reaches them all. Most files wait on a server, a database
    // or a child process rather than the CPU, so two at a time finish sooner.
    pnpm(['exec', 'vitest', 'run', '--maxWorkers=2', ...rest]);
    break;
  case 'test:quick':
    // The edit loop's subset (docs/architecture.md, "Tests"): the packages whose tests need no
    // build, no browser and no service process: pure code, and services started in the test's own
    // process. The server's, the CLI's, the Chromium, e2e, packaging and example suites stay in `test`.
    pnpm([
      'exec',
      'vitest',
      'run',
      '--maxWorkers=2',
      ...QUICK_PROJECTS.flatMap((name) => ['--project', name]),
      ...rest,
    ]);
    break;
  case 'bench':
    pnpm(['run', 'build']);
    pnpm(['-r', '--if-present', 'run', 'bench', ...rest]);
    break;
  default:
    log(`Unknown command "${command ?? ''}". Use: start, test, test:quick, bench, scrub or scrub-server.`);
    process.exit(2);
}
