import type { Command } from 'commander';

/**
 * Refuses a first word that names no command (`scrub-server backup x`). `start` is the default
 * command, so commander would otherwise read the word as start's argument and answer "too many
 * arguments for 'start'". Nothing at all, or options first (`scrub-server --help`), still means start.
 */
export function refuseUnknownCommand(program: Command, args: readonly string[]): void {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return;
  const names = program.commands.map((command) => command.name());
  const known = [...names, ...program.commands.flatMap((command) => command.aliases()), 'help'];
  if (known.includes(first)) return;
  program.error(
    `error: unknown command '${first}'\nCommands: ${names.join(', ')}. See scrub-server --help.`,
    { code: 'commander.unknownCommand', exitCode: 2 },
  );
}
