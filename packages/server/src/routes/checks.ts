import { Readable } from 'node:stream';
import { type CheckLogFilter, routes } from '@scrub/contract';
import type { FastifyReply } from 'fastify';
import { checksCsv, listChecks } from '../checks/check-log-query.js';
import type { ServerContext } from '../context.js';
import { wantsCsv } from '../http/wants-csv.js';

/** The phone log: `GET /checks` (a page, newest first; CSV with `Accept: text/csv`) and `GET /checks.csv` (all of it, filtered). */
export function registerChecks(context: ServerContext): void {
  const { registry, database, checkLog } = context;
  const csvOf = (profileId: string, query: CheckLogFilter, reply: FastifyReply) => {
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="phone-log.csv"');
    return Readable.from(checksCsv(database.db, profileId, query));
  };
  registry.add(routes.listChecks, async ({ principal, query, request, reply }) => {
    // A check answered a moment ago is in the log: what is queued is written first.
    await checkLog.settled();
    // `Accept: text/csv` answers what GET /checks.csv does, with the same filters (the page's own
    // `page` and `limit` left out: the CSV holds every matching check).
    if (wantsCsv(request.headers.accept)) {
      const { page: _page, limit: _limit, ...filter } = query;
      return csvOf(principal.profileId, filter, reply) as never;
    }
    return listChecks(database.db, principal.profileId, query);
  });
  registry.add(routes.exportChecks, async ({ principal, query, reply }) => {
    await checkLog.settled();
    return csvOf(principal.profileId, query, reply);
  });
}
