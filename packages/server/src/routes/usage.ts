import { routes, type UsageQuery } from '@scrub/contract';
import type { FastifyReply } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { ServerContext } from '../context.js';
import { wantsCsv } from '../http/wants-csv.js';
import { usageOwners } from '../usage/usage-accounts.js';
import { usageCsv } from '../usage/usage-csv.js';
import { usageRange } from '../usage/usage-range.js';
import { usageReport, usageTable } from '../usage/usage-report.js';

/** Client Performance: `GET /usage` (figures by day or week; CSV with `Accept: text/csv`) and `GET /usage.csv` (the same as CSV). */
export function registerUsage(context: ServerContext): void {
  const { registry, database, checkLog } = context;
  const tableFor = async (principal: Principal, query: UsageQuery) => {
    const range = usageRange(query);
    const owners = await usageOwners(database.db, principal, query.account);
    // A check answered a moment ago is counted: what the phone log has queued is written first.
    await checkLog.settled();
    return usageTable(database.db, owners, range);
  };
  const csvOf = async (principal: Principal, query: UsageQuery, reply: FastifyReply) => {
    const csv = usageCsv(await tableFor(principal, query));
    reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="usage.csv"');
    return csv;
  };
  registry.add(routes.getUsage, async ({ principal, query, request, reply }) => {
    // `Accept: text/csv` answers what GET /usage.csv does, as GET /checks does.
    if (wantsCsv(request.headers.accept)) return (await csvOf(principal, query, reply)) as never;
    return usageReport(await tableFor(principal, query));
  });
  registry.add(routes.exportUsage, async ({ principal, query, reply }) => csvOf(principal, query, reply));
}
