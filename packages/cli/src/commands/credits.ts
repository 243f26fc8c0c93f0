import { Command } from 'commander';
import type { Context } from '../context.js';

export function creditsCommand(context: Context): Command {
  return new Command('credits').description('credits left, plan and subscription').action(async () => {
    const { credits } = await import('../actions/credits.js');
    await credits(context);
  });
}
