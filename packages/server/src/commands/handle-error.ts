import { type Command, CommanderError } from 'commander';
import { ApiError } from '../errors/api-error.js';
import { ConfigError } from '../errors/config-error.js';

/** An expected failure: the message is for the operator, the code for scripts, the exit code for the shell. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly code = 'error',
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

/** The command line itself is wrong, in a way commander's own checks cannot see (options that need each other). */
export class UsageError extends CommandError {
  constructor(message: string) {
    super(message, 2, 'usage');
    this.name = 'UsageError';
  }
}

interface Failure {
  exitCode: number;
  code: string;
  message: string;
}

function describeFailure(error: unknown): Failure | null {
  if (error instanceof CommanderError) {
    // commander has printed its own message (or the help); --help and --version end a run successfully.
    return error.exitCode === 0 ? null : { exitCode: 2, code: 'usage', message: '' };
  }
  if (error instanceof CommandError)
    return { exitCode: error.exitCode, code: error.code, message: error.message };
  // Settings are the operator's command line too: the environment is wrong, not the service.
  if (error instanceof ConfigError) return { exitCode: 2, code: 'config', message: error.message };
  if (error instanceof ApiError) return { exitCode: 1, code: error.code, message: error.message };
  return { exitCode: 1, code: 'error', message: error instanceof Error ? error.message : String(error) };
}

/** The one place a failed `scrub-server` run becomes an exit code and a line on stderr; stdout keeps data only. */
export function handleError(
  error: unknown,
  stderr: { write(text: string): unknown } = process.stderr,
): number {
  const failure = describeFailure(error);
  if (!failure) return 0;
  if (failure.message) stderr.write(`scrub-server: ${failure.message}\n`);
  return failure.exitCode;
}

/**
 * commander exits the process on a usage error by default: made to throw instead, for the command
 * and every command below it (`addCommand` does not pass the setting down), so that handleError
 * decides the exit code.
 */
export function throwInsteadOfExiting(command: Command): Command {
  command.exitOverride();
  for (const sub of command.commands) throwInsteadOfExiting(sub);
  return command;
}
