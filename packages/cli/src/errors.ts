/** An expected failure: the message is for people, the code for scripts, the exit code for the shell. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly code = 'error',
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The command line itself is wrong: an unknown key, a bad value, a missing argument. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2, 'usage');
    this.name = 'UsageError';
  }
}

/**
 * The run worked, but the results matched a condition the caller asked to fail on (`--fail-on`),
 * so a CI job can tell "the list has DNC numbers" apart from "the scrub broke".
 */
export class FailOnMatchedError extends CliError {
  constructor(message: string) {
    super(message, 5, 'fail_on_matched');
    this.name = 'FailOnMatchedError';
  }
}

/**
 * The exit code when no credits came: too few for the job, or a refused payment. Decided here
 * only: `OutOfCreditsError` and the SDK's credit and payment errors (`handle-error.ts`) use it.
 */
export const NO_CREDITS_EXIT_CODE = 4;

/** Too few credits for what was asked: exit `NO_CREDITS_EXIT_CODE`, code `insufficient_credits`. */
export class OutOfCreditsError extends CliError {
  constructor(message: string) {
    super(message, NO_CREDITS_EXIT_CODE, 'insufficient_credits');
    this.name = 'OutOfCreditsError';
  }
}

/** No credentials, or refused ones: exit 3, so a script can tell "sign in first" from a failure. */
export class NotSignedInError extends CliError {
  constructor(message: string, code = 'not_signed_in') {
    super(message, 3, code);
    this.name = 'NotSignedInError';
  }
}

export const signInHint =
  'Sign in with scrub login, set SCRUB_API_KEY, or save a key with: printf %s "$KEY" | scrub config set api_key -';
