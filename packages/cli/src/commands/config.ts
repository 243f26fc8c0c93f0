import { Command } from 'commander';
import type { Context } from '../context.js';

export function configCommand(context: Context): Command {
  const config = new Command('config').description(
    'read and change saved settings: api_url, api_key, output (table or json)',
  );
  config
    .command('get')
    .description('print one setting of the profile (api_key masked)')
    .argument('<key>', 'api_url, api_key or output')
    .action(async (key: string) => {
      const { configGet } = await import('../actions/config.js');
      await configGet(key, context);
    });
  config
    .command('set')
    .description('save one setting in the profile; api_key is read from stdin: set api_key -')
    .argument('<key>', 'api_url, api_key or output')
    .argument('<value>', 'the value, or - to read api_key from stdin')
    .action(async (key: string, value: string) => {
      const { configSet } = await import('../actions/config.js');
      await configSet(key, value, context);
    });
  config
    .command('list')
    .description("print the profile's settings as key=value (api_key masked)")
    .action(async () => {
      const { configList } = await import('../actions/config.js');
      await configList(context);
    });
  return config;
}
