import {
  type CheckLogEntry,
  type CheckLogFilter,
  type CheckLogPage,
  type CheckLogQuery,
  routes,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { type NumberedPage, numberedPage } from '../core/numbered-page.js';
import { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';

/** `GET /checks`: filters (`number`, `line_type`, `dnc`, `from`, `to`, `source`), `page`, `limit`; all optional. */
export type CheckListParams = Partial<CheckLogQuery>;
/** `GET /checks.csv`: the filters of `list`. */
export type CheckExportParams = CheckLogFilter;
/** One page of the phone log; iterated with `for await`, every check of it and of the pages after it. */
export type CheckPage = NumberedPage<CheckLogPage, CheckLogEntry>;

/** The phone log: every single check of the account, with its answer, source and credits. */
export class Checks extends APIResource {
  /**
   * The log, newest first: `await` it for one page, or iterate it with `for await` for every check
   * of every page (`for await (const check of scrub.checks.list({ dnc: '1' }))`).
   */
  list(params: CheckListParams = {}, options?: RequestOptions): PagePromise<CheckPage, CheckLogEntry> {
    const fetchPage = async (page: number): Promise<CheckPage> =>
      numberedPage(
        await this.client.request(routes.listChecks, { ...params, page }, options),
        (list) => list.checks,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }

  /** The filtered log as CSV, streamed (never held whole). */
  export(params: CheckExportParams = {}, options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    return this.client.request(routes.exportChecks, params, options);
  }
}
