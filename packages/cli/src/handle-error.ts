import { CommanderError } from 'commander';
import type { Context } from './context.js';
import { CliError, NO_CREDITS_EXIT_CODE, signInHint } from './errors.js';

type SDK = typeof import('@scrub/sdk');

interface Failure {
  exitCode: number;
  code: string;
  message: string;
}

/** Commander's own messages start with "error: "; the funnel adds that prefix once, for everyone. */
function fromCommander(error: CommanderError): Failure | null {
  // --help and --version end a run successfully; help shown for a missing command was already printed.
  if (error.exitCode === 0) return null;
  if (error.code === 'commander.help') return { exitCode: 2, code: 'usage', message: '' };
  return { exitCode: 2, code: 'usage', message: error.message.replace(/^error: /, '') };
}

async function describe(error: unknown): Promise<Failure | null> {
  if (error instanceof CommanderError) return fromCommander(error);
  if (error instanceof CliError) {
    return { exitCode: error.exitCode, code: error.code, message: error.message };
  }
  // Ctrl-C at a prompt: the shell's convention for an interrupted command.
  if (error instanceof Error && error.name === 'ExitPromptError') {
    return { exitCode: 130, code: 'cancelled', message: 'Cancelled.' };
  }
  // Imported here, not at the top, so runs that never reach the API never load the SDK.
  const sdk = await import('@scrub/sdk');
  if (error instanceof sdk.APIConnectionError) {
    return {
      exitCode: 1,
      code: 'connection_error',
      message: `${error.message}. Is the Scrub API running? Start one locally with pnpm start, or point scrub at another with --api-url or SCRUB_API_URL.`,
    };
  }
  if (error instanceof sdk.AuthError) return fromAuthError(error, sdk);
  if (error instanceof sdk.BulkJobFailedError) {
    return { exitCode: 1, code: 'job_failed', message: error.message };
  }
  if (error instanceof sdk.APIError) {
    const requestId = error.requestId ? ` (request id ${error.requestId})` : '';
    const message = `${error.message}${requestId}`;
    if (error instanceof sdk.AuthenticationError) {
      return { exitCode: 3, code: error.code ?? 'unauthorized', message: `${message}. ${signInHint}` };
    }
    if (error instanceof sdk.InsufficientCreditsError) {
      return { exitCode: NO_CREDITS_EXIT_CODE, code: error.code ?? 'insufficient_credits', message };
    }
    // A refused payment exits as too few credits do, as a script cares that no credits came: the
    // provider's reason is in the message.
    if (error instanceof sdk.CardDeclinedError || error instanceof sdk.AuthenticationRequiredError) {
      return { exitCode: NO_CREDITS_EXIT_CODE, code: error.code ?? 'card_declined', message };
    }
    if (error instanceof sdk.PaymentMethodRequiredError) {
      return {
        exitCode: NO_CREDITS_EXIT_CODE,
        code: 'payment_method_required',
        message: `${message}. Add a card with scrub card add.`,
      };
    }
    return { exitCode: 1, code: error.code ?? 'api_error', message };
  }
  return { exitCode: 1, code: 'error', message: error instanceof Error ? error.message : String(error) };
}

/** Sign-in problems exit 3; the rest of what the identity provider refuses (a wrong code, a weak password) 1. */
function fromAuthError(error: InstanceType<SDK['AuthError']>, sdk: SDK): Failure {
  if (error instanceof sdk.NotSignedInError) {
    return { exitCode: 3, code: error.code, message: `Not signed in. ${signInHint}` };
  }
  if (error instanceof sdk.SessionExpiredError) {
    return {
      exitCode: 3,
      code: error.code,
      message: 'Session expired, so it was removed: sign in again with scrub login.',
    };
  }
  const signIn =
    error instanceof sdk.InvalidCredentialsError ||
    error instanceof sdk.UserNotConfirmedError ||
    error instanceof sdk.UserNotFoundError;
  return { exitCode: signIn ? 3 : 1, code: error.code, message: error.message };
}

/** The one place a failed run becomes an exit code and a message on stderr; stdout keeps data only. */
export async function handleError(error: unknown, context: Context): Promise<number> {
  const failure = await describe(error);
  if (!failure) return 0;
  if (failure.message) {
    const { stderr } = context.io;
    const { code, message } = failure;
    stderr.write(
      context.jsonErrors ? `${JSON.stringify({ error: { code, message } })}\n` : `error: ${message}\n`,
    );
  }
  return failure.exitCode;
}
