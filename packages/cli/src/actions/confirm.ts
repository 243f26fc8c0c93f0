import { authMessages } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { codeFrom, emailFrom, note } from '../input.js';
import { parseInput } from '../validate.js';

const ConfirmOptionsSchema = z.object({
  email: z.string().optional(),
  code: z.string().optional(),
  resend: z.boolean().optional(),
});

/** Confirms the e-mail with the code sent at sign-up, or with --resend sends a new code. */
export async function confirm(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(ConfirmOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub confirm');
  const scrub = await context.authClient();
  const json = (await context.output()) === 'json';
  if (options.resend) {
    const delivery = await scrub.auth.resendCode({ email });
    if (json)
      context.io.stdout.write(`${JSON.stringify({ email, code_sent_to: delivery?.destination ?? null })}\n`);
    note(context, authMessages.codeResent);
    return;
  }
  const code = await codeFrom(options.code, context, email);
  await scrub.auth.confirmSignUp({ email, code });
  if (json) context.io.stdout.write(`${JSON.stringify({ email, confirmed: true })}\n`);
  note(context, `${authMessages.emailConfirmed} Sign in with: scrub login --email ${email}`);
}
