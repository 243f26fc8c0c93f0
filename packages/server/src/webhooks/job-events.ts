import { creditsOfJob } from '../account/job-credits.js';
import type { OnJobEnd } from '../bulk/job-store.js';
import { bulkJobOf } from '../bulk/job-view.js';
import { recordEvent } from './webhook-store.js';

/**
 * Writes `job.completed` or `job.failed`, with the job as `GET /bulk/jobs/{id}` answers it, to the
 * outbox. The job's credits are summed only when an endpoint takes the event (most accounts have none).
 */
export function jobEventRecorder(publicUrl: () => string, retryForSeconds: number): OnJobEnd {
  return async (trx, job) =>
    recordEvent(trx, {
      profileId: job.profile_id,
      type: job.status === 'completed' ? 'job.completed' : 'job.failed',
      data: async () => ({ job: bulkJobOf(job, publicUrl(), await creditsOfJob(trx, job)) }),
      retryForSeconds,
    });
}
