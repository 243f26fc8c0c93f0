import { authMessages } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { NotSignedInError, signInHint } from '../errors.js';
import { codeFrom, emailFrom, newPasswordFrom, note, passwordChangeFrom } from '../input.js';
import { parseInput } from '../validate.js';

const EmailOptionsSchema = z.object({ email: z.string().optional() });
const ResetOptionsSchema = z.object({
  email: z.string().optional(),
  code: z.string().optional(),
  passwordStdin: z.boolean().optional(),
});
const ChangeOptionsSchema = z.object({ passwordStdin: z.boolean().optional() });

async function printJson(context: Context, value: unknown): Promise<void> {
  if ((await context.output()) === 'json') context.io.stdout.write(`${JSON.stringify(value)}\n`);
}

/** E-mails a reset code. Whether the address has an account is not revealed. */
export async function passwordForgot(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(EmailOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub password forgot');
  const scrub = await context.authClient();
  const delivery = await scrub.auth.forgotPassword({ email });
  await printJson(context, { email, code_sent_to: delivery?.destination ?? null });
  note(context, `${authMessages.resetCodeSent} Then: scrub password reset --email ${email}`);
}

/** Sets a new password with the e-mailed code; every session of the account ends. */
export async function passwordReset(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(ResetOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub password reset');
  const code = await codeFrom(options.code, context, email);
  const password = await newPasswordFrom(options.passwordStdin, context, 'scrub password reset');
  const scrub = await context.authClient();
  await scrub.auth.confirmForgotPassword({ email, code, newPassword: password });
  await printJson(context, { email, password_reset: true });
  note(context, `${authMessages.passwordReset} Sign in with: scrub login --email ${email}`);
}

/** Changes the signed-in person's password. */
export async function passwordChange(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(ChangeOptionsSchema, rawOptions);
  const scrub = await context.authClient();
  if (!scrub.auth.hasSession()) {
    throw new NotSignedInError(`Not signed in: changing a password needs a session. ${signInHint}`);
  }
  const { current, next } = await passwordChangeFrom(options.passwordStdin, context, 'scrub password change');
  await scrub.auth.changePassword({ oldPassword: current, newPassword: next });
  await printJson(context, { password_changed: true });
  note(context, authMessages.passwordUpdated);
}
