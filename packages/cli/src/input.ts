import { z } from 'zod';
import type { Context } from './context.js';
import { NotSignedInError, UsageError } from './errors.js';
import { parseInput } from './validate.js';

/** The sign-up form's rule: a local part, @, a domain, a dot and two or more letters. */
const EmailSchema = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .regex(/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/, 'Invalid email address');

const CodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'The code is the 6 digits from the e-mail');

function noPrompt(context: Context, what: string): UsageError {
  const why = context.options.input === false ? '--no-input was given' : 'stdin is not a terminal';
  return new UsageError(`${what} (${why}, so scrub cannot ask)`);
}

/** --email, or asked for at a terminal. */
export async function emailFrom(
  option: string | undefined,
  context: Context,
  command: string,
): Promise<string> {
  if (option !== undefined) return parseInput(EmailSchema, option);
  if (!context.canPrompt) throw noPrompt(context, `${command} needs --email <address>`);
  return parseInput(EmailSchema, await context.io.prompter.input('Email'));
}

/** --code, or asked for at a terminal. A code works once, within the hour, so it may be an argument. */
export async function codeFrom(option: string | undefined, context: Context, email: string): Promise<string> {
  if (option !== undefined) return parseInput(CodeSchema, option);
  if (!context.canPrompt)
    throw noPrompt(context, `--code is required: the 6-digit code e-mailed to ${email}`);
  return parseInput(CodeSchema, await context.io.prompter.input(`Code e-mailed to ${email}`));
}

/**
 * The authenticator app's code for sign-in: --code or SCRUB_MFA_CODE first (scripts: a code is
 * good for one 30-second step, once), else asked for at a terminal, and asked again after a
 * wrong one. A recovery code is accepted too.
 */
export async function mfaCodeFrom(
  option: string | undefined,
  context: Context,
  retry: boolean,
): Promise<string> {
  const given = option ?? context.io.env.SCRUB_MFA_CODE;
  if (given && !retry) return given.trim();
  if (!context.canPrompt) {
    if (retry)
      throw new NotSignedInError(
        'The authenticator code was not right (or was already used).',
        'mfa_code_mismatch',
      );
    throw noPrompt(
      context,
      'This account signs in with an authenticator code: give --code <code> or SCRUB_MFA_CODE',
    );
  }
  const question = retry
    ? 'That code was not right. Code from your authenticator app'
    : 'Code from your authenticator app (or a recovery code)';
  return context.io.prompter.input(question);
}

/** Piped text, as lines; a terminal is refused, since what is typed there would show. */
async function stdinLines(context: Context, count: number, command: string): Promise<string[]> {
  const { stdin } = context.io;
  if (stdin.isTTY) {
    throw new UsageError(
      `--password-stdin reads a pipe, and stdin is a terminal here: leave out --password-stdin to be asked, or pipe it: printf '%s\\n' "$PASSWORD" | ${command} --password-stdin`,
    );
  }
  let text = '';
  for await (const chunk of stdin) text += chunk.toString();
  const lines = text.split(/\r?\n/).slice(0, count);
  if (lines.length < count || lines.some((line) => line === '')) {
    throw new UsageError(
      count === 1
        ? 'Password is required: --password-stdin read nothing'
        : `--password-stdin needs ${count} lines here: the current password, then the new one`,
    );
  }
  return lines;
}

const required = (password: string) => {
  if (password === '') throw new UsageError('Password is required');
  return password;
};

function passwordSource(context: Context, command: string): UsageError {
  return noPrompt(
    context,
    `${command} needs a password: pipe it with --password-stdin, or run it at a terminal to be asked`,
  );
}

/** A password that exists: from stdin with --password-stdin, else asked for; never an argument. */
export async function passwordFrom(fromStdin: boolean | undefined, context: Context, command: string) {
  if (fromStdin) return (await stdinLines(context, 1, command))[0] ?? '';
  if (!context.canPrompt) throw passwordSource(context, command);
  return required(await context.io.prompter.password('Password'));
}

/** A password being chosen: asked twice at a terminal, so a typing slip does not lock anyone out. */
export async function newPasswordFrom(fromStdin: boolean | undefined, context: Context, command: string) {
  if (fromStdin) return (await stdinLines(context, 1, command))[0] ?? '';
  if (!context.canPrompt) throw passwordSource(context, command);
  const password = required(await context.io.prompter.password('New password'));
  const again = await context.io.prompter.password('Confirm new password');
  if (again !== password) throw new UsageError('Please make sure Password and Confirm Password match.');
  return password;
}

/** The current and the new password: two lines on stdin, or asked for. */
export async function passwordChangeFrom(fromStdin: boolean | undefined, context: Context, command: string) {
  if (fromStdin) {
    const [current = '', next = ''] = await stdinLines(context, 2, command);
    return { current, next };
  }
  if (!context.canPrompt) throw passwordSource(context, command);
  const current = required(await context.io.prompter.password('Current password'));
  return { current, next: await newPasswordFrom(false, context, command) };
}

/** Notes for people go to stderr; stdout keeps data only. */
export function note(context: Context, text: string): void {
  context.io.stderr.write(`${text}\n`);
}
