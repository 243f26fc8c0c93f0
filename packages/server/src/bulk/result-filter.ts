import { PassThrough, type Readable } from 'node:stream';
import { filterResultCsv as filterCsv } from '@scrub/engine';

/** What a result download keeps: rows whose Line Type cell holds one of `lineTypes` and whose DNC cell holds `dnc`. */
export interface ResultFilter {
  lineTypes: string[];
  dnc: string | null;
}

/** The result file filtered as it streams (the export page's filters, applied on the server). */
export function filterResultCsv(result: Readable, filter: ResultFilter): Readable {
  const filtered = new PassThrough();
  filterCsv(result, filtered, {
    lineTypes: filter.lineTypes,
    ...(filter.dnc === null ? {} : { dnc: filter.dnc }),
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
