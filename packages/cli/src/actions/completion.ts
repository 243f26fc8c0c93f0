import type { Command } from 'commander';
import { completionScript, type Shell } from '../completion-scripts.js';
import type { Context } from '../context.js';

/** Prints the shell's completion script on stdout, to be sourced or saved where the shell looks. */
export function completion(shell: Shell, program: Command, context: Context): void {
  context.io.stdout.write(completionScript(program, shell));
}
