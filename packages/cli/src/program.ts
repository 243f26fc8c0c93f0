import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { Context, type GlobalOptions } from './context.js';
import { handleError } from './handle-error.js';
import { type CliIO, processIO } from './io.js';

/**
 * Commands are declared here and implemented in src/commands/, imported when they run, so that
 * `scrub --help` and `scrub --version` never load the SDK, zod, conf or cli-table3.
 */
export function createProgram(context: Context): Command {
  const { io } = context;
  const program = new Command('scrub')
    .description('Check US phone numbers for line type and do-not-call status.')
    .version(packageJson.version, '-v, --version', 'print the version')
    .option('--api-url <url>', 'the Scrub API (default: SCRUB_API_URL, the profile, http://localhost:8787)')
    .option('--profile <name>', 'the config profile (default: SCRUB_PROFILE, "default")')
    .option('--json', 'print JSON on stdout (errors as JSON on stderr)')
    .option('--no-input', 'never prompt; fail with a message instead')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // handleError prints every error, commander's included, so each is printed once and alike.
      outputError: () => {},
    })
    .exitOverride();

  program
    .command('plans')
    .description('list the plans and their prices')
    .option('--type <type>', 'only plans of one type: prepaid, postpaid or intro')
    .action(async (options: unknown) => {
      const { plans } = await import('./commands/plans.js');
      await plans(options, context);
    });

  const config = program
    .command('config')
    .description('read and change saved settings: api_url, api_key, output (table or json)');
  config
    .command('get')
    .description('print one setting of the profile (api_key masked)')
    .argument('<key>', 'api_url, api_key or output')
    .action(async (key: string) => {
      const { configGet } = await import('./commands/config.js');
      await configGet(key, context);
    });
  config
    .command('set')
    .description('save one setting in the profile; api_key is read from stdin: set api_key -')
    .argument('<key>', 'api_url, api_key or output')
    .argument('<value>', 'the value, or - to read api_key from stdin')
    .action(async (key: string, value: string) => {
      const { configSet } = await import('./commands/config.js');
      await configSet(key, value, context);
    });
  config
    .command('list')
    .description("print the profile's settings as key=value (api_key masked)")
    .action(async () => {
      const { configList } = await import('./commands/config.js');
      await configList(context);
    });

  return program;
}

/** Runs one command line and returns the exit code; every failure goes through handleError. */
export async function run(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const context = new Context(io, () => program.opts<GlobalOptions>());
  const program = createProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return handleError(error, context);
  }
}
