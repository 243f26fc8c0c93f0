import { authMessages } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { emailFrom, newPasswordFrom, note } from '../input.js';
import { parseInput } from '../validate.js';

const SignupOptionsSchema = z.object({
  email: z.string().optional(),
  name: z.string().trim().max(100, '--name is at most 100 characters').optional(),
  passwordStdin: z.boolean().optional(),
});

export async function signup(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(SignupOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub signup');
  const password = await newPasswordFrom(options.passwordStdin, context, 'scrub signup');
  const scrub = await context.authClient();
  const result = await scrub.auth.signUp({
    email,
    password,
    ...(options.name ? { name: options.name } : {}),
  });
  const sentTo = result.codeDelivery?.destination ?? null;
  if ((await context.output()) === 'json') {
    context.io.stdout.write(
      `${JSON.stringify({ email, user_id: result.userId, confirmed: result.confirmed, code_sent_to: sentTo })}\n`,
    );
  }
  note(context, authMessages.signedUp);
  if (!result.confirmed) {
    note(
      context,
      `Then confirm it with: scrub confirm --email ${email}${sentTo ? ` (the code went to ${sentTo})` : ''}`,
    );
  }
}
