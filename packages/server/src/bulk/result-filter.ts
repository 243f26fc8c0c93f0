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
