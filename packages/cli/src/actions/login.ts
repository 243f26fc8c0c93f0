import { UserNotConfirmedError } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { NotSignedInError } from '../errors.js';
import { emailFrom, note, passwordFrom } from '../input.js';
import { parseInput } from '../validate.js';

const LoginOptionsSchema = z.object({
  email: z.string().optional(),
  passwordStdin: z.boolean().optional(),
});

/** Signs in and keeps the session in the profile, until it expires or `scrub logout`. */
export async function login(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(LoginOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub login');
  const password = await passwordFrom(options.passwordStdin, context, 'scrub login');
  const scrub = await context.authClient();
  const session = await scrub.auth.signIn({ email, password }).catch((error: unknown) => {
    if (error instanceof UserNotConfirmedError) {
      throw new NotSignedInError(
        `${error.message} Enter it with: scrub confirm --email ${email} (a new code: scrub confirm --email ${email} --resend)`,
        error.code,
      );
    }
    throw error;
  });
  // The first signed-in call makes the account on the service (its profile, credits 0), so that an
  // operator can grant it credits straight after sign-in; it also proves the service takes the token.
  await scrub.account.get();
  const profile = await context.profileName();
  if ((await context.output()) === 'json') {
    context.io.stdout.write(
      `${JSON.stringify({ email: session.email, user_id: session.userId, profile, expires_at: session.expiresAt.toISOString() })}\n`,
    );
  }
  note(context, `Signed in as ${session.email} (profile "${profile}").`);
  if (context.io.env.SCRUB_API_KEY) {
    note(context, 'Note: SCRUB_API_KEY is set, and is used instead of this session while it is.');
  }
}
