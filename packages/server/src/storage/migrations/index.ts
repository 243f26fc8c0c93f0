import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001-plans.js';
import * as m0002 from './0002-identity.js';
import * as m0003 from './0003-mail-outbox.js';
import * as m0004 from './0004-accounts.js';
import * as m0005 from './0005-bulk-jobs.js';
import * as m0006 from './0006-local-stripe.js';
import * as m0007 from './0007-admin.js';
import * as m0008 from './0008-payments.js';
import * as m0009 from './0009-idempotency-keys.js';
import * as m0010 from './0010-rate-limits.js';
import * as m0011 from './0011-agency-clients.js';
import * as m0012 from './0012-refunds.js';
import * as m0013 from './0013-suppression-lists.js';
import * as m0014 from './0014-proof-of-scrub.js';
import * as m0015 from './0015-webhooks.js';
import * as m0016 from './0016-job-columns.js';
import * as m0017 from './0017-charge-checks.js';
import * as m0018 from './0018-dnc-list-dates.js';
import * as m0019 from './0019-carrier-lookups.js';
import * as m0020 from './0020-operator-lists.js';
import * as m0021 from './0021-bulk-consent-column.js';
import * as m0022 from './0022-registry-inbox.js';
import * as m0023 from './0023-bulk-carrier-lookup.js';
import * as m0024 from './0024-suppression-imports.js';
import * as m0025 from './0025-webhook-secret-grace.js';
import * as m0026 from './0026-payment-edges.js';
import * as m0027 from './0027-mfa.js';
import * as m0028 from './0028-check-log.js';
import * as m0029 from './0029-resumable-uploads.js';
import * as m0030 from './0030-ledger-reasons.js';
import * as m0031 from './0031-auto-top-up.js';
import * as m0032 from './0032-file-removal.js';
import * as m0033 from './0033-usage-indexes.js';
import * as m0034 from './0034-mapped-headers.js';
import * as m0035 from './0035-lean-check-log.js';
import * as m0036 from './0036-charge-queued-checks.js';

/**
 * Migrations are listed here rather than read from a folder, so they travel inside the bundle and
 * run the same from source, from `dist/` and from an installed package. Never edit a released one.
 */
const migrations: Record<string, Migration> = {
  '0001-plans': m0001,
  '0002-identity': m0002,
  '0003-mail-outbox': m0003,
  '0004-accounts': m0004,
  '0005-bulk-jobs': m0005,
  '0006-local-stripe': m0006,
  '0007-admin': m0007,
  '0008-payments': m0008,
  '0009-idempotency-keys': m0009,
  '0010-rate-limits': m0010,
  '0011-agency-clients': m0011,
  '0012-refunds': m0012,
  '0013-suppression-lists': m0013,
  '0014-proof-of-scrub': m0014,
  '0015-webhooks': m0015,
  '0016-job-columns': m0016,
  '0017-charge-checks': m0017,
  '0018-dnc-list-dates': m0018,
  '0019-carrier-lookups': m0019,
  '0020-operator-lists': m0020,
  '0021-bulk-consent-column': m0021,
  '0022-registry-inbox': m0022,
  '0023-bulk-carrier-lookup': m0023,
  '0024-suppression-imports': m0024,
  '0025-webhook-secret-grace': m0025,
  '0026-payment-edges': m0026,
  '0027-mfa': m0027,
  '0028-check-log': m0028,
  '0029-resumable-uploads': m0029,
  '0030-ledger-reasons': m0030,
  '0031-auto-top-up': m0031,
  '0032-file-removal': m0032,
  '0033-usage-indexes': m0033,
  '0034-mapped-headers': m0034,
  '0035-lean-check-log': m0035,
  '0036-charge-queued-checks': m0036,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
