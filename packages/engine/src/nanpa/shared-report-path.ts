import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * NANPA's NPA report is not committed: it is read from SCRUB_NPA_REPORT, or from the shared data
 * folder beside the repository. Null when neither exists; with SCRUB_REQUIRE_REFERENCE_DATA set
 * (CI) that is an error rather than a reason to skip.
 */
export function sharedNpaReportPath(): string | null {
  const candidates = [
    process.env.SCRUB_NPA_REPORT,
    fileURLToPath(new URL('../../../../../shared/data/nanpa/npa_report.csv', import.meta.url)),
  ].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p)) ?? null;
  if (!found && process.env.SCRUB_REQUIRE_REFERENCE_DATA) {
    throw new Error(
      `NANPA's NPA report not found (looked in: ${candidates.join(', ')}); set SCRUB_NPA_REPORT`,
    );
  }
  return found;
}
