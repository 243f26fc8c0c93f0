import { Command } from 'commander';
import type { Context } from '../context.js';

export function webhooksCommand(context: Context): Command {
  const webhooks = new Command('webhooks').description(
    'endpoints told when bulk jobs end (job.completed, job.failed), signed, retried for a day',
  );
  webhooks
    .command('add')
    .description('register an endpoint; prints its signing secret once')
    .argument('<url>', 'where to POST events: https://... (http://localhost only on a local server)')
    .option('--events <types>', 'events to send, comma-separated: job.completed,job.failed (default both)')
    .option('--description <text>', 'a note for people: what the endpoint is for')
    .action(async (url: string, options: unknown) => {
      const { webhooksAdd } = await import('../actions/webhooks.js');
      await webhooksAdd(url, options, context);
    });
  webhooks
    .command('list')
    .description('list the endpoints: id, URL, events')
    .action(async () => {
      const { webhooksList } = await import('../actions/webhooks.js');
      await webhooksList(context);
    });
  webhooks
    .command('remove')
    .description('remove an endpoint: nothing more is sent to it')
    .argument('<endpoint_id>', 'the id scrub webhooks add printed (we_...)')
    .action(async (endpointId: string) => {
      const { webhooksRemove } = await import('../actions/webhooks.js');
      await webhooksRemove(endpointId, context);
    });
  webhooks
    .command('test')
    .description('send a signed webhook.test event now; exit 1 if the endpoint did not answer 2xx')
    .argument('<endpoint_id>', 'the endpoint (we_...)')
    .action(async (endpointId: string) => {
      const { webhooksTest } = await import('../actions/webhooks.js');
      await webhooksTest(endpointId, context);
    });
  webhooks
    .command('deliveries')
    .description("an endpoint's delivery log, newest first: event, status, attempts, answer, next retry")
    .argument('<endpoint_id>', 'the endpoint (we_...)')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'deliveries per page, 1 to 100 (default 20)')
    .action(async (endpointId: string, options: unknown) => {
      const { webhooksDeliveries } = await import('../actions/webhooks.js');
      await webhooksDeliveries(endpointId, options, context);
    });
  webhooks
    .command('rotate-secret')
    .description(
      'give an endpoint a new signing secret, printed once; the old one keeps signing beside it for a day',
    )
    .argument('<endpoint_id>', 'the endpoint (we_...)')
    .option(
      '--grace <seconds>',
      'how long the old secret keeps signing, 0 to 604800 (default 86400; 0 stops it now)',
    )
    .action(async (endpointId: string, options: unknown) => {
      const { webhooksRotateSecret } = await import('../actions/webhooks.js');
      await webhooksRotateSecret(endpointId, options, context);
    });
  return webhooks;
}
