import {
  type CreditHistoryEntry,
  type CreditHistoryFilter,
  type CreditHistoryPage,
  type CreditHistoryQuery,
  type CreditSnapshot,
  routes,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { type NumberedPage, numberedPage } from '../core/numbered-page.js';
import { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';

/** `GET /credits/history`: `month` (`YYYY-MM`), `page`, `limit`; all optional. */
export type CreditHistoryParams = Partial<CreditHistoryQuery>;
/** `GET /credits/history.csv`: the `month` of `history`. */
export type CreditHistoryExportParams = CreditHistoryFilter;
/** One page of the credit history; iterated with `for await`, every entry of it and of the pages after it. */
export type CreditHistoryPageOf = NumberedPage<CreditHistoryPage, CreditHistoryEntry>;

/** The credit ledger: every entry with its running balance (the balance itself is `scrub.account.credits()`). */
export class Credits extends APIResource {
  /** @deprecated Use `scrub.account.credits()`. */
  get(options?: RequestOptions): Promise<CreditSnapshot> {
    return this.client.account.credits(options);
  }

  /**
   * The credit history, newest first: purchases, checks, bulk jobs, give-backs (with their reason),
   * refunds, admin adjustments and auto top-ups, each with the balance it left. `await` it for one
   * page, or iterate it with `for await` for every entry (`for await (const e of scrub.credits.history({ month: '2026-11' }))`).
   */
  history(
    params: CreditHistoryParams = {},
    options?: RequestOptions,
  ): PagePromise<CreditHistoryPageOf, CreditHistoryEntry> {
    const fetchPage = async (page: number): Promise<CreditHistoryPageOf> =>
      numberedPage(
        await this.client.request(routes.listCreditHistory, { ...params, page }, options),
        (list) => list.entries,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }

  /** The history (of one month, with `month`) as CSV, streamed (never held whole). */
  exportHistory(
    params: CreditHistoryExportParams = {},
    options?: RequestOptions,
  ): Promise<ReadableStream<Uint8Array>> {
    return this.client.request(routes.exportCreditHistory, params, options);
  }
}
