import type { JobRow } from './job-store.js';

/** The Export filters a mailed result link carries, as `GET /files/{ref}/result` takes them. */
export interface MailedFilter {
  line_type?: string | undefined;
  dnc?: string | undefined;
  callable_now?: string | undefined;
}

/**
 * The links to a completed file, as the mails that carry them say it: the result (filtered as
 * asked) and the dashboard's file detail page. The links are the file's unguessable reference, so
 * whoever holds the mail can open them, as with the dashboard's public file page.
 */
export function fileLinks(job: JobRow, publicUrl: string, filter: MailedFilter = {}): string[] {
  const query = new URLSearchParams();
  if (filter.line_type && filter.line_type !== 'all') query.set('line_type', filter.line_type);
  if (filter.dnc && filter.dnc !== 'all') query.set('dnc', filter.dnc);
  if (filter.callable_now && filter.callable_now !== 'all') query.set('callable_now', filter.callable_now);
  const reference = encodeURIComponent(job.file_reference);
  const result = `${publicUrl}/files/${reference}/result${query.size > 0 ? `?${query}` : ''}`;
  const described = query.size > 0 ? ` (only rows with ${describe(filter)})` : '';
  return [
    `Download the results${described}: ${result}`,
    `File details: ${publicUrl}/fileinfo?file_reference=${reference}`,
  ];
}

function describe({ line_type, dnc, callable_now }: MailedFilter): string {
  const parts: string[] = [];
  if (line_type && line_type !== 'all') parts.push(`line type ${line_type.split(',').join(' or ')}`);
  if (dnc === '0') parts.push('DNC 0, clean');
  if (dnc === '1') parts.push('DNC 1, on a do-not-call list');
  if (callable_now === '1') parts.push('Callable Now 1, inside the calling window when scrubbed');
  if (callable_now === '0') parts.push('Callable Now 0, outside the calling window when scrubbed');
  return parts.join(' and ');
}

/** "12,345 records", as every file mail counts them. */
export const recordsOf = (job: JobRow) => `${(job.total_rows ?? 0).toLocaleString('en-US')} records`;
