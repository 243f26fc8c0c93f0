import { Command } from 'commander';
import type { Context } from '../context.js';

export function whoamiCommand(context: Context): Command {
  return new Command('whoami')
    .description(
      'who the credentials in use belong to, their plan and credits, and which credentials they are',
    )
    .action(async () => {
      const { whoami } = await import('../actions/whoami.js');
      await whoami(context);
    });
}
