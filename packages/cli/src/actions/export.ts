import { z } from 'zod';
import type { Context } from '../context.js';
import { saveDownload } from '../download.js';
import { UsageError } from '../errors.js';
import { downloadFilters, ResultFilterOptionsSchema } from '../result-filters.js';
import { parseInput } from '../validate.js';

const ExportOptionsSchema = ResultFilterOptionsSchema.extend({ upload: z.boolean().optional() });

/**
 * `scrub export <file_reference>`: the result CSV (every input row with `Line Type` and `DNC`),
 * filtered by the service, to stdout or `-o FILE`; `--upload` downloads the file as uploaded.
 * Public, as the file detail page is: the reference is the credential.
 */
export async function exportFile(
  fileReference: string,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const options = parseInput(ExportOptionsSchema, rawOptions);
  if (options.upload && (options.lineType !== undefined || options.dnc !== undefined)) {
    throw new UsageError(
      '--upload downloads the file as it was uploaded: --line-type and --dnc filter results only',
    );
  }
  const scrub = await context.client();
  const stream = options.upload
    ? await scrub.files.downloadUpload(fileReference)
    : await scrub.files.download(fileReference, downloadFilters(options));
  await saveDownload(context.io, stream, options.output);
}
