import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the built dashboard is: `SCRUB_DASHBOARD_DIR`, else the dashboard package's `dist` beside
 * this package in the monorepo (from `src/dashboard/` or from the bundled `dist/`). Null when there
 * is none: the API runs without it (a published server has no dashboard beside it).
 */
export function dashboardDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.SCRUB_DASHBOARD_DIR?.trim();
  const candidates = configured
    ? [configured]
    : ['../../../dashboard/dist/', '../../dashboard/dist/'].map((relative) =>
        fileURLToPath(new URL(relative, import.meta.url)),
      );
  return candidates.find((dir) => existsSync(`${dir}/index.html`)) ?? null;
}
