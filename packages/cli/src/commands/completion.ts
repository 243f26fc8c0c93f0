import { Argument, Command } from 'commander';
import { SHELLS, type Shell } from '../completion-scripts.js';
import type { Context } from '../context.js';

export function completionCommand(context: Context): Command {
  return new Command('completion')
    .description('print the Tab-completion script for bash, zsh or fish (commands, subcommands and options)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action(async (shell: Shell, _options: unknown, command: Command) => {
      const { completion } = await import('../actions/completion.js');
      // The script is written from the whole program, the command's root.
      let program = command;
      while (program.parent) program = program.parent;
      completion(shell, program, context);
    });
}
