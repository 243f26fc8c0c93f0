/** The result filters of `scrub export` and `scrub bulk --wait`. */
import { LINE_TYPES } from '@scrub/contract';
import type { DownloadOptions, Scrub } from '@scrub/sdk';
import { z } from 'zod';
import type { CliIO } from './io.js';

// The contract's list, so that the CLI names the line types the service answers, no more, no fewer.
const lineTypeFilters = [...LINE_TYPES, 'all'] as const;

/**
 * `--line-type`, `--dnc` and `--callable-now`: the export page's filters, applied by the service as
 * the result is downloaded. `--line-type mobile,landline` keeps rows of either type.
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
  callableNow: z
    .enum(['0', '1', 'all'], {
      error:
        '--callable-now takes 1 (inside the calling window when scrubbed), 0 (outside) or all; the result needs the callable_now column',
    })
    .optional(),
  output: z.string().min(1, '-o needs a file name').optional(),
});
type ResultFilterOptions = z.infer<typeof ResultFilterOptionsSchema>;

export function downloadFilters({ lineType, dnc, callableNow }: ResultFilterOptions): DownloadOptions {
  return { lineType, dnc, ...(callableNow === undefined ? {} : { callableNow }) };
}

/** Whether any result filter was given (they apply to a downloaded result only). */
export const filtersGiven = ({ lineType, dnc, callableNow }: ResultFilterOptions) =>
  lineType !== undefined || dnc !== undefined || callableNow !== undefined;

/**
 * After a download with `--dnc 0`: when the Clean filter kept no row because no number was checked
 * (every DNC cell `unchecked`: no do-not-call list covering them was loaded), says so on stderr,
 * in the service's words (the file's `dnc_notice`). Unchecked is not clean, and a header-only file
 * without a word looks like a list of numbers that are all on a do-not-call list.
 */
export async function noteUncheckedCleanFilter(
  io: CliIO,
  scrub: Scrub,
  fileReference: string,
  dnc: ResultFilterOptions['dnc'],
): Promise<void> {
  if (dnc !== '0') return;
  const notice = await scrub.files.get(fileReference).then(
    (file) => file.dnc_notice,
    () => undefined,
  );
  if (notice) io.stderr.write(`Note: ${notice}\n`);
}
