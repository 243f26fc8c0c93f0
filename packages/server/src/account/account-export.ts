import type { AccountExport, CheckLogEntry, FileView } from '@scrub/contract';
import type { Kysely } from 'kysely';
import { listSubmittedJobs } from '../bulk/job-store.js';
import { fileViewOf } from '../bulk/job-view.js';
import { listChecks } from '../checks/check-log-query.js';
import { listPurchases } from '../payments/purchase-ledger.js';
import type { Database } from '../storage/schema.js';
import { getProfile, userInfo } from './profiles.js';

/** Rows one query of the export reads. */
const PAGE = 100;

async function allFiles(db: Kysely<Database>, profileId: string, publicUrl: string, retentionDays: number) {
  const files: FileView[] = [];
  for (let page = 1; ; page++) {
    const { rows } = await listSubmittedJobs(db, profileId, { page, limit: PAGE });
    files.push(...rows.map((row) => fileViewOf(row, publicUrl, retentionDays)));
    if (rows.length < PAGE) return files;
  }
}

async function allChecks(db: Kysely<Database>, profileId: string) {
  const checks: CheckLogEntry[] = [];
  for (let page = 1; ; page++) {
    const found = await listChecks(db, profileId, { page, limit: 200 });
    checks.push(...found.checks);
    if (page >= found.total_pages) return checks;
  }
}

/** Everything kept about the account, as `GET /account/export` answers it. */
export async function exportAccount(
  db: Kysely<Database>,
  profileId: string,
  { publicUrl, retentionDays }: { publicUrl: string; retentionDays: number },
): Promise<AccountExport> {
  const profile = await getProfile(db, profileId);
  const [account, files, purchases, checks] = await Promise.all([
    userInfo(db, profile),
    allFiles(db, profileId, publicUrl, retentionDays),
    // Every purchase: an account makes a few a month.
    listPurchases(db, profileId, { per_page: 1_000_000 }),
    allChecks(db, profileId),
  ]);
  return { exported_at: new Date().toISOString(), account, files, purchases, checks };
}
