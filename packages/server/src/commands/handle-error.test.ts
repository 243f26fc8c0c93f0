import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { ConfigError } from '../errors/config-error.js';
import { CommandError, handleError, throwInsteadOfExiting, UsageError } from './handle-error.js';

function funnel(error: unknown) {
  let stderr = '';
  const exitCode = handleError(error, { write: (text: string) => (stderr += text) });
  return { exitCode, stderr };
}

describe("scrub-server's error funnel", () => {
  it('exits 0 for --help and --version, 2 for usage and settings, 1 for the rest, with one line on stderr', () => {
    expect(funnel(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({
      exitCode: 0,
      stderr: '',
    });
    // commander has printed its own message: nothing more.
    expect(funnel(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toEqual({
      exitCode: 2,
      stderr: '',
    });
    expect(funnel(new UsageError('--a needs --b.'))).toEqual({
      exitCode: 2,
      stderr: 'scrub-server: --a needs --b.\n',
    });
    expect(funnel(new ConfigError('Invalid settings: SCRUB_PORT'))).toEqual({
      exitCode: 2,
      stderr: 'scrub-server: Invalid settings: SCRUB_PORT\n',
    });
    expect(funnel(new ApiError('not_found', 'No account.'))).toEqual({
      exitCode: 1,
      stderr: 'scrub-server: No account.\n',
    });
    expect(funnel(new Error('disk full'))).toEqual({ exitCode: 1, stderr: 'scrub-server: disk full\n' });
    expect(funnel(new CommandError('No mail.', 1, 'no_mail')).exitCode).toBe(1);
  });

  it("makes commander's usage errors of nested commands reach the funnel instead of exiting", async () => {
    const program = new Command('scrub-server');
    const parent = new Command('parent');
    parent.command('child').argument('<one>');
    program.addCommand(parent);
    program.configureOutput({ writeErr: () => {} });
    parent.commands[0]!.configureOutput({ writeErr: () => {} });
    throwInsteadOfExiting(program);
    const failed = await program.parseAsync(['parent', 'child'], { from: 'user' }).catch((error) => error);
    expect(failed).toBeInstanceOf(CommanderError);
    expect(funnel(failed).exitCode).toBe(2);
  });
});
