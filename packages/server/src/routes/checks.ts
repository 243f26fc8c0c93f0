import { Readable } from 'node:stream';
import { routes } from '@scrub/contract';
import { checksCsv, listChecks } from '../checks/check-log-query.js';
import type { ServerContext } from '../context.js';

/** The phone log: `GET /checks` (a page, newest first) and `GET /checks.csv` (all of it, filtered). */
export function registerChecks(context: ServerContext): void {
  const { registry, database, checkLog } = context;
  registry.add(routes.listChecks, async ({ principal, query }) => {
    // A check answered a moment ago is in the log: what is queued is written first.
    await checkLog.settled();
    return listChecks(database.db, principal.profileId, query);
  });
  registry.add(routes.exportChecks, async ({ principal, query, reply }) => {
    await checkLog.settled();
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="phone-log.csv"');
    return Readable.from(checksCsv(database.db, principal.profileId, query));
  });
}
