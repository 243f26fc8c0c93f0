import { Readable } from 'node:stream';
import { routes } from '@scrub/contract';
import { creditHistoryCsv, listCreditHistory } from '../account/credit-history.js';
import type { ServerContext } from '../context.js';

/**
 * The credit history: `GET /credits/history` (a page, newest first) and `GET /credits/history.csv`
 * (all of it, by month). An admin or agency acting as the account reads the account's own.
 */
export function registerCredits(context: ServerContext): void {
  const { registry, database, checkCharger } = context;
  registry.add(routes.listCreditHistory, async ({ principal, query }) => {
    // A check charged a moment ago is in the history: what is queued is written first.
    await checkCharger.settled();
    return listCreditHistory(database.db, principal.profileId, query);
  });
  registry.add(routes.exportCreditHistory, async ({ principal, query, reply }) => {
    await checkCharger.settled();
    const name = query.month ? `credit-history-${query.month}.csv` : 'credit-history.csv';
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`);
    return Readable.from(creditHistoryCsv(database.db, principal.profileId, query));
  });
}
