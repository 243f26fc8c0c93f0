import { Command } from 'commander';
import type { Context } from '../context.js';

export function keyCommand(context: Context): Command {
  const key = new Command('key').description('the API key');
  key
    .command('rotate')
    .description('make a new API key, which invalidates the current one; prints it once and saves it')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--no-save', 'do not save the new key in the profile')
    .action(async (options: unknown) => {
      const { keyRotate } = await import('../actions/key.js');
      await keyRotate(options, context);
    });
  return key;
}
