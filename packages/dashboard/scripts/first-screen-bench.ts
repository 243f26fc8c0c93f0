/**
 * The first screen, timed in Chromium: the dashboard test's "first screen" case (7 cold loads, fresh
 * context each, after one warm-up), run `--rounds` times (default 2). With `--before DIR` (another
 * build's dist, for example main's, built with `vite build --outDir DIR`) each round runs that
 * build first and this package's dist next, on the same machine and load, and every load is pooled
 * per build. Prints each run's figures and the pooled medians. `pnpm bench` runs it once, after only.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** One run of the test against the build in `dir`: its loads' "first screen usable" times, in ms. */
function run(label: string, dir: string): number[] {
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--maxWorkers=1',
      '--project',
      'dashboard',
      'packages/dashboard/tests/dashboard.test.ts',
      '-t',
      'first screen',
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, SCRUB_DASHBOARD_DIR: dir } },
  );
  const output = `${result.stdout}${result.stderr}`;
  const figures = /dashboard figures: (\{[\s\S]*?\n\})/.exec(output)?.[1];
  if (result.status !== 0 || !figures) throw new Error(`${label}: the test failed\n${output}`);
  console.log(`${label} (load average ${(loadavg()[0] ?? 0).toFixed(1)}): ${figures}`);
  const usable = (JSON.parse(figures) as Record<string, string>).firstScreenUsableMs ?? '';
  return (/\(([^)]*)\)/.exec(usable)?.[1] ?? '').split(', ').map(Number);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const before = option('--before');
const rounds = Number(option('--rounds') ?? (before ? 2 : 1));
const pooled: Record<string, number[]> = {};
for (let round = 1; round <= rounds; round++) {
  const builds: [string, string][] = before
    ? [
        ['before', before],
        ['after', dist],
      ]
    : [['this build', dist]];
  for (const [label, dir] of builds) {
    pooled[label] = [...(pooled[label] ?? []), ...run(`${label}, round ${round}`, dir)];
  }
}
for (const [label, times] of Object.entries(pooled)) {
  console.log(
    `${label}: first screen usable, median ${median(times)} ms over ${times.length} loads (${times.join(', ')})`,
  );
}
