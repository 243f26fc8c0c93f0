import { pathFor, routes } from '@scrub/contract';
import type { DownloadOptions } from '@scrub/sdk';

export type ResultFilter = Pick<DownloadOptions, 'lineType' | 'dnc' | 'callableNow'>;

/**
 * Downloads are plain links (`<a href download>`): the browser streams the answer straight to disk,
 * however large, instead of the page reading it into memory first. Both calls need no credentials
 * (the unguessable file reference is the key, as on the public /fileinfo page), and the service
 * names the file (Content-Disposition); the `download` name is the same, for browsers that prefer it.
 */
export interface DownloadLink {
  href: string;
  download: string;
}

const baseName = (name: string) => name.replace(/\.csv$/i, '');

/**
 * The result CSV, filtered by the service on its Line Type, DNC and Callable Now columns (the SDK's
 * query rules).
 */
export function resultLink(
  reference: string,
  fileName: string,
  { lineType, dnc, callableNow }: ResultFilter,
): DownloadLink {
  const query = new URLSearchParams();
  if (lineType !== undefined) query.set('line_type', Array.isArray(lineType) ? lineType.join(',') : lineType);
  if (dnc !== undefined) query.set('dnc', String(dnc));
  if (callableNow !== undefined) query.set('callable_now', String(callableNow));
  const search = query.size > 0 ? `?${query}` : '';
  return {
    href: pathFor(routes.downloadResult.path, { file_reference: reference }) + search,
    download: `${baseName(fileName)}-scrubbed.csv`,
  };
}

/**
 * A failed job's kept result: the records a streamed job cut off part-way scrubbed (and charged).
 * The same download as the result's, named as a part, as the service names it.
 */
export function partLink(reference: string, fileName: string, filter: ResultFilter): DownloadLink {
  const link = resultLink(reference, fileName, filter);
  return { ...link, download: `${baseName(fileName)}-scrubbed-part.csv` };
}

/** The CSV as it was uploaded. */
export function originalLink(reference: string, fileName: string): DownloadLink {
  return {
    href: pathFor(routes.downloadUpload.path, { file_reference: reference }),
    download: `${baseName(fileName)}.csv`,
  };
}
