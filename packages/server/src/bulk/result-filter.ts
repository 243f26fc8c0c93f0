import { PassThrough, type Readable } from 'node:stream';
import { filterResultCsv as filterCsv } from '@scrub/engine';
import { ApiError } from '../errors/api-error.js';
import type { JobRow } from './job-store.js';

/**
 * What a result download keeps: rows whose Line Type cell holds one of `lineTypes`, whose DNC cell
 * holds `dnc` and whose Callable Now cell holds `callableNow` (null: any).
 */
export interface ResultFilter {
  lineTypes: string[];
  dnc: string | null;
  callableNow: string | null;
}

/** The download's query as a filter: `all` and absent are no filter. */
export function resultFilterOf(query: {
  line_type?: string;
  dnc?: string;
  callable_now?: string;
}): ResultFilter {
  const lineTypes = (query.line_type ?? '').split(',').filter((type) => type !== '');
  const chosen = (value: string | undefined) => (value === undefined || value === 'all' ? null : value);
  return {
    lineTypes: lineTypes.includes('all') ? [] : lineTypes,
    dnc: chosen(query.dnc),
    callableNow: chosen(query.callable_now),
  };
}

export const isNoFilter = (filter: ResultFilter) =>
  filter.lineTypes.length === 0 && filter.dnc === null && filter.callableNow === null;

/** Whether the job's result has the Callable Now column (it was asked for `callable_now`). */
export const hasCallableNow = (job: JobRow) => job.output_columns?.includes('callable_now') ?? false;

/** A calling-window filter on a result without the column is refused before anything is sent. */
export function requireCallableNowColumn(job: JobRow, callableNow: string | null | undefined): void {
  if (callableNow === null || callableNow === undefined || callableNow === 'all' || hasCallableNow(job))
    return;
  throw new ApiError(
    'bad_request',
    'This file has no Callable Now column, so it cannot be filtered on the calling window: scrub it again with the callable_now column (columns=callable_now).',
  );
}

/** The result file filtered as it streams (the export page's filters, applied on the server). */
export function filterResultCsv(result: Readable, filter: ResultFilter): Readable {
  const filtered = new PassThrough();
  filterCsv(result, filtered, {
    lineTypes: filter.lineTypes,
    ...(filter.dnc === null ? {} : { dnc: filter.dnc }),
    ...(filter.callableNow === null ? {} : { callableNow: filter.callableNow }),
  }).catch((error: unknown) => filtered.destroy(error as Error));
  return filtered;
}

/** The response header a filtered download says why it is empty in (`CLEAN_FILTER_NOTICE_HEADER`). */
export const CLEAN_FILTER_NOTICE_HEADER = 'x-scrub-dnc-notice';

/**
 * Why the "clean" filter (`dnc=0`) keeps no row of a job although it has valid numbers: none was
 * checked against a do-not-call list (no list covering them was loaded, or only stale ones). null
 * when some row is clean, or when the reason is plain (every number listed, or none valid).
 */
export function cleanFilterNotice(dncStatus: Record<string, number>): string | null {
  if ((dncStatus.clean ?? 0) > 0) return null;
  const unchecked = dncStatus.unchecked ?? 0;
  if (unchecked === 0) return null;
  const rows = unchecked === 1 ? '1 row' : `${unchecked.toLocaleString('en-US')} rows`;
  return `No row is clean because no number was checked: ${rows} answered unchecked, as no do-not-call list covering the numbers was loaded (or only lists too old to rely on) when the file was scrubbed. Unchecked is not clean: scrub the file again once the operator has loaded a current registry.`;
}
