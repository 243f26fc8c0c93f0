import { LINE_TYPES } from '@scrub/contract';
import { z } from 'zod';

/**
 * `--fail-on` of `scrub check` and `scrub bulk`: every line type the service answers, `dnc`, and
 * `unchecked`, a valid number no loaded do-not-call list covers (a CI job can refuse to call on such
 * answers). A match exits 5 once the answers are out.
 */
export const failOnConditions = ['dnc', 'unchecked', ...LINE_TYPES] as const;
export type FailOnCondition = (typeof failOnConditions)[number];

export const FailOnSchema = z
  .array(
    z.enum(failOnConditions, {
      error: (issue) => `--fail-on takes ${failOnConditions.join(', ')} (got "${String(issue.input)}")`,
    }),
  )
  .default([]);

/**
 * What a finished bulk job counted of each condition that matched, as `dnc 2`, `invalid 1`: empty
 * when none did. The job's counts cover every row, whatever filter the download used.
 */
export function matchedJobCounts(
  job: { line_types: Record<string, number>; dnc_status: Record<string, number> },
  conditions: readonly FailOnCondition[],
): string[] {
  return [...new Set(conditions)].flatMap((condition) => {
    const count =
      condition === 'dnc' || condition === 'unchecked'
        ? job.dnc_status[condition]
        : job.line_types[condition];
    return count ? [`${condition} ${count.toLocaleString('en-US')}`] : [];
  });
}
