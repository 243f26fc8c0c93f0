import { z } from 'zod';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { note } from '../input.js';
import { parseInput } from '../validate.js';

const LogoutOptionsSchema = z.object({ everywhere: z.boolean().optional() });

/** Revokes the profile's session and removes it; a saved API key stays. */
export async function logout(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(LogoutOptionsSchema, rawOptions);
  const profile = await context.profileName();
  const scrub = await context.authClient();
  if (!scrub.auth.hasSession()) {
    note(context, `Not signed in (profile "${profile}").`);
    return;
  }
  try {
    await scrub.auth.signOut({ everywhere: options.everywhere === true });
  } catch (error) {
    throw new CliError(
      `Signed out on this machine, but the session could not be revoked: ${error instanceof Error ? error.message : String(error)}`,
      1,
      'revoke_failed',
    );
  }
  note(
    context,
    options.everywhere
      ? `Signed out everywhere (profile "${profile}").`
      : `Signed out (profile "${profile}").`,
  );
}
