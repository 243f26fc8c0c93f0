import { Command } from 'commander';
import type { Context } from '../context.js';

export function jobsCommand(context: Context): Command {
  const jobs = new Command('jobs').description('bulk jobs: show one, or wait for it to end');
  jobs
    .command('show')
    .description('print a bulk job: status, rows, credits')
    .argument('<job_id>', 'the job id scrub bulk printed')
    .action(async (jobId: string) => {
      const { jobsShow } = await import('../actions/jobs.js');
      await jobsShow(jobId, context);
    });
  jobs
    .command('wait')
    .description('wait for a bulk job to end, then print it; exit 1 if it failed')
    .argument('<job_id>', 'the job id scrub bulk printed')
    .action(async (jobId: string) => {
      const { jobsWait } = await import('../actions/jobs.js');
      await jobsWait(jobId, context);
    });
  return jobs;
}
