import { ConflictError, type DownloadOptions, NotFoundError } from '@scrub/sdk';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { showErrorDialog } from '../../shell/error-dialog';

export type ResultFilter = Pick<DownloadOptions, 'lineType' | 'dnc'>;

/** Hands a finished download to the browser as a file. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const baseName = (name: string) => name.replace(/\.csv$/i, '');

/** The result CSV, filtered by the service on its Line Type and DNC columns. */
export async function downloadResult(
  reference: string,
  fileName: string,
  filter: ResultFilter,
): Promise<void> {
  try {
    const stream = await scrub.files.download(reference, filter);
    save(await new Response(stream).blob(), `${baseName(fileName)}-scrubbed.csv`);
  } catch (error) {
    if (error instanceof ConflictError) return showErrorDialog('Error', 'Results not ready');
    if (error instanceof NotFoundError) return showErrorDialog('Error', 'No file found');
    showErrorDialog('Error!', errorMessage(error));
  }
}

/** The CSV as it was uploaded. */
export async function downloadOriginal(reference: string, fileName: string): Promise<void> {
  try {
    const stream = await scrub.files.downloadUpload(reference);
    save(await new Response(stream).blob(), `${baseName(fileName)}.csv`);
  } catch (error) {
    if (error instanceof NotFoundError) return showErrorDialog('Error', 'No file found');
    showErrorDialog('Error!', errorMessage(error));
  }
}
