import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { note } from '../input.js';
import { parseInput } from '../validate.js';

/** The API page's own question. */
export const rotateQuestion = 'Generating a new API key will invalidate your current key. Continue?';

const RotateOptionsSchema = z.object({ yes: z.boolean().optional(), save: z.boolean() });

/**
 * Makes a new API key, which revokes the current one at once. The key is printed once, on stdout,
 * and saved in the profile unless --no-save.
 */
export async function keyRotate(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(RotateOptionsSchema, rawOptions);
  const { scrub, source } = await requireCredentials(context);
  if (!options.yes) {
    if (!context.canPrompt) {
      const why = context.options.input === false ? '--no-input was given' : 'stdin is not a terminal';
      throw new UsageError(
        `scrub key rotate invalidates the current key and asks first; ${why}, so pass --yes to rotate without asking`,
      );
    }
    if (!(await context.io.prompter.confirm(rotateQuestion, false))) {
      throw new CliError('Not rotated: the current API key still works.', 1, 'cancelled');
    }
  }
  const rotation = await scrub.apiKey.rotate();
  const profile = await context.profileName();
  if (options.save) (await context.store()).set(profile, 'api_key', rotation.api_key);
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(
      `${JSON.stringify({ ...rotation, saved_in_profile: options.save ? profile : null }, null, 2)}\n`,
    );
  } else {
    stdout.write(`${rotation.api_key}\n`);
  }
  note(context, 'This is the ONLY time you will see this API key.');
  note(
    context,
    options.save
      ? `Saved in profile "${profile}"; the previous key no longer works.`
      : 'Not saved (--no-save); the previous key no longer works.',
  );
  if (source === 'SCRUB_API_KEY') note(context, 'SCRUB_API_KEY still holds the previous key: update it.');
}
