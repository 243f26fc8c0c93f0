import type { Context } from './context.js';
import { CliError, UsageError } from './errors.js';

/**
 * Commands that spend money or end something ask first at a terminal; scripts say `--yes`. Without
 * a terminal (or with --no-input) and without --yes, nothing happens and the usage error says why.
 */
export async function askFirst(
  context: Context,
  options: { yes?: boolean | undefined; question: string; command: string; declined: string },
): Promise<void> {
  if (options.yes) return;
  if (!context.canPrompt) {
    const why = context.options.input === false ? '--no-input was given' : 'stdin is not a terminal';
    throw new UsageError(`${options.command} asks first; ${why}, so pass --yes to go ahead without asking`);
  }
  if (!(await context.io.prompter.confirm(options.question, false))) {
    throw new CliError(options.declined, 1, 'cancelled');
  }
}
