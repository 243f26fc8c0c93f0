import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { note } from '../input.js';

/**
 * `scrub admin as <user> -- <command...>`: gets a short-lived act-as token with the admin's
 * credentials, then runs the command with it in place of any other credential. The command's exit
 * code becomes this one's.
 */
export async function adminAs(user: string, command: string[], context: Context): Promise<void> {
  if (command.length === 0)
    throw new UsageError('Say which command to run: scrub admin as <user> -- <command>');
  const { scrub } = await requireCredentials(context);
  const token = await scrub.admin.users.actAs(user);
  note(context, `Acting as ${token.email} until ${token.expires_at}`);
  const global = context.options;
  const code = await context.runCommand(
    [
      ...(global.apiUrl ? ['--api-url', global.apiUrl] : []),
      ...(global.profile ? ['--profile', global.profile] : []),
      ...(global.json ? ['--json'] : []),
      ...(global.input === false ? ['--no-input'] : []),
      ...command,
    ],
    { ...context.io, env: { ...context.io.env, SCRUB_ACT_AS_TOKEN: token.token } },
  );
  // The command has said what went wrong; only its exit code is left to pass on.
  if (code !== 0) throw new CliError('', code, 'acted_command_failed');
}
