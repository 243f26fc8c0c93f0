/** A bulk job for people, and the wait for one to end: `scrub bulk --wait` and `scrub jobs` share them. */
import type { BulkJob, Scrub } from '@scrub/sdk';
import type { Context } from './context.js';
import { count, formatPairs } from './format.js';
import { jobCreditsLine } from './job-credits.js';
import { bar, progressLine } from './progress-line.js';

/** `mobile 12, landline 3`; `name` renames a key for people (`dnc` is `do not call`). */
const counts = (byKey: Record<string, number>, name: (key: string) => string = (key) => key) =>
  Object.entries(byKey)
    .map(([key, n]) => `${name(key)} ${count(n)}`)
    .join(', ') || '-';

const DNC_LABELS: Record<string, string> = {
  clean: 'clean',
  dnc: 'do not call',
  unchecked: 'unchecked (no list covers them)',
};
const dncLabel = (key: string) => DNC_LABELS[key] ?? key;

/** The job for people, as `label  value` lines; --json prints the API's JSON instead. */
export async function printJob(context: Context, job: BulkJob): Promise<void> {
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(job, null, 2)}\n`);
    return;
  }
  const rows = job.total_rows === null ? '-' : count(job.total_rows);
  const pairs: [string, string][] = [
    ['Job', job.job_id],
    ['File', job.filename],
    ['Reference', job.file_reference],
    ['Status', job.status],
    ['Rows', job.status === 'processing' ? `${count(job.processed_rows)} of ${rows} done` : rows],
    ['Duplicates', count(job.duplicates)],
    ['Credits', jobCreditsLine(job)],
  ];
  if (job.status === 'completed') {
    pairs.push(['Line types', counts(job.line_types)], ['DNC', counts(job.dnc_status, dncLabel)]);
  }
  if (job.file_message) pairs.push(['Note', job.file_message]);
  if (job.error) pairs.push(['Error', job.error]);
  stdout.write(formatPairs(pairs));
}

/** What the processing line says: queued, or how far along the rows are. */
function describeProgress(job: BulkJob): string {
  if (job.status === 'queued' || job.total_rows === null) return `Job ${job.job_id} is ${job.status}…`;
  return `Processing ${bar(job.processed_rows, job.total_rows)}  ${count(job.processed_rows)} of ${count(job.total_rows)} rows`;
}

/**
 * Waits for the job to end, showing how far it is on a terminal. Resolves with the completed job;
 * a failed one throws `BulkJobFailedError`, which handleError reports with the job's error.
 */
export async function waitForJob(context: Context, scrub: Scrub, jobId: string): Promise<BulkJob> {
  const line = progressLine(context.io);
  try {
    return await scrub.bulk.wait(jobId, {
      // The last figure is drawn whatever the redraw rate: it stays until the line is cleared.
      onProgress: (job) => line.update(describeProgress(job), job.status !== 'processing'),
    });
  } finally {
    line.clear();
  }
}
