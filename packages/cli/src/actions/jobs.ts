import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { printJob, waitForJob } from '../job-output.js';

/** `scrub jobs show <id>` */
export async function jobsShow(jobId: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  await printJob(context, await scrub.bulk.get(jobId));
}

/** `scrub jobs wait <id>`: prints the job once it has ended; exit 1 when it failed. */
export async function jobsWait(jobId: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  await printJob(context, await waitForJob(context, scrub, jobId));
}
