import type { DownloadOptions } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { saveDownload } from '../download.js';
import { UsageError } from '../errors.js';
import { parseInput } from '../validate.js';
import { lineTypes } from './check.js';

const lineTypeFilters = [...lineTypes, 'all'] as const;

/**
 * `--line-type` and `--dnc`: the export page's filters, applied by the service as the result is
 * downloaded. `--line-type mobile,landline` keeps rows of either type.
 */
export const ResultFilterOptionsSchema = z.object({
  lineType: z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim().toLowerCase()))
    .pipe(
      z.array(
        z.enum(lineTypeFilters, {
          error: (issue) => `--line-type takes ${lineTypeFilters.join(', ')} (got "${String(issue.input)}")`,
        }),
      ),
    )
    // `all` anywhere in the list keeps every row, as the service reads it.
    .transform((types) => (types.includes('all') ? undefined : types.filter((type) => type !== 'all')))
    .optional(),
  dnc: z
    .enum(['0', '1', 'all'], { error: '--dnc takes 0 (clean numbers only), 1 (DNC numbers only) or all' })
    .optional(),
  output: z.string().min(1, '-o needs a file name').optional(),
});
type ResultFilterOptions = z.infer<typeof ResultFilterOptionsSchema>;

export function downloadFilters({ lineType, dnc }: ResultFilterOptions): DownloadOptions {
  return { lineType, dnc };
}

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
