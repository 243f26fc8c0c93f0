import { type AuthenticatorSetup, UserNotConfirmedError } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { NotSignedInError } from '../errors.js';
import { emailFrom, mfaCodeFrom, note, passwordFrom } from '../input.js';
import { parseInput } from '../validate.js';

const LoginOptionsSchema = z.object({
  email: z.string().optional(),
  passwordStdin: z.boolean().optional(),
  code: z.string().optional(),
});

/** Signs in and keeps the session in the profile, until it expires or `scrub logout`. */
export async function login(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(LoginOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub login');
  const password = await passwordFrom(options.passwordStdin, context, 'scrub login');
  const scrub = await context.authClient();
  const session = await scrub.auth
    .signIn({
      email,
      password,
      mfaCode: ({ retry }) => mfaCodeFrom(options.code, context, retry),
      enrolAuthenticator: (setup) => enrol(setup, context),
    })
    .catch((error: unknown) => {
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

/** A role that requires an authenticator, and none set up: at a terminal, set one up now. */
async function enrol(setup: AuthenticatorSetup, context: Context): Promise<string> {
  if (!context.canPrompt) {
    throw new NotSignedInError(
      'Your role requires an authenticator app and none is set up: sign in once at a terminal or in the dashboard to set it up.',
      'mfa_setup_required',
    );
  }
  note(context, 'Your role requires an authenticator app. Add this key to it (or open the address):');
  note(context, `  ${setup.secret}`);
  note(context, `  ${setup.uri}`);
  return context.io.prompter.input('Code the app shows');
}
