import { z } from 'zod';
import type { Context } from '../context.js';
import { saveDownload } from '../download.js';
import { UsageError } from '../errors.js';
import {
  downloadFilters,
  filtersGiven,
  noteUncheckedCleanFilter,
  ResultFilterOptionsSchema,
} from '../result-filters.js';
import { parseInput } from '../validate.js';

const ExportOptionsSchema = ResultFilterOptionsSchema.extend({
  upload: z.boolean().optional(),
  // `--email` alone is `true` (your own address); `--email a@x.com,b@y.com` lists the addresses.
  email: z
    .union([
      z.literal(true),
      z.string().transform((list) => list.split(',').map((address) => address.trim())),
    ])
    .optional(),
});

/**
 * `scrub export <file_reference>`: the result CSV (every input row with `Line Type` and `DNC`),
 * filtered by the service, to stdout or `-o FILE`; `--upload` downloads the file as uploaded.
 * Public, as the file detail page is: the reference is the credential. `--email` mails the links
 * instead (the owner only).
 */
export async function exportFile(
  fileReference: string,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const options = parseInput(ExportOptionsSchema, rawOptions);
  if (options.upload && filtersGiven(options)) {
    throw new UsageError(
      '--upload downloads the file as it was uploaded: --line-type, --dnc and --callable-now filter results only',
    );
  }
  if (options.email !== undefined) {
    if (options.upload || options.output !== undefined)
      throw new UsageError('--email sends links by e-mail: it takes neither --upload nor -o');
    const scrub = await context.client();
    const sent = await scrub.files.email(fileReference, {
      ...downloadFilters(options),
      ...(options.email === true ? {} : { to: options.email }),
    });
    context.io.stdout.write(`${sent.message}\n`);
    return;
  }
  const scrub = await context.client();
  const stream = options.upload
    ? await scrub.files.downloadUpload(fileReference)
    : await scrub.files.download(fileReference, downloadFilters(options));
  await saveDownload(context.io, stream, options.output);
  // A Clean filter that kept nothing because nothing was checked says so (unchecked is not clean).
  if (!options.upload) await noteUncheckedCleanFilter(context.io, scrub, fileReference, options.dnc);
}
