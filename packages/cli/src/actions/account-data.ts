import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { parseInput } from '../validate.js';

const ExportOptionsSchema = z.object({ output: z.string().optional() });

/** `scrub account export`: everything kept about the account, as JSON, to stdout or `-o FILE`. */
export async function accountExport(rawOptions: unknown, context: Context): Promise<void> {
  const { output } = parseInput(ExportOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const text = `${JSON.stringify(await scrub.account.export(), null, 2)}\n`;
  if (output === undefined) {
    context.io.stdout.write(text);
    return;
  }
  await writeFile(output, text, { mode: 0o600 });
  context.io.stderr.write(`Saved your account's data to ${output}.\n`);
}

const DeleteOptionsSchema = z.object({ confirmEmail: z.string().trim().optional() });

/**
 * `scrub account delete`: the account's e-mail address typed again (at a terminal, or given with
 * --confirm-email in a script) deletes the account for good.
 */
export async function accountDelete(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(DeleteOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  let typed = options.confirmEmail;
  if (typed === undefined) {
    if (!context.canPrompt) {
      const why = context.options.input === false ? '--no-input was given' : 'stdin is not a terminal';
      throw new UsageError(
        `scrub account delete asks for the account's e-mail address; ${why}, so pass --confirm-email ADDRESS`,
      );
    }
    context.io.stderr.write(
      'This deletes your account for good: files, phone log, suppression list, webhooks, API keys, saved cards and your sign-in.\nRun `scrub account export -o my-data.json` first to keep a copy.\n',
    );
    typed = (await context.io.prompter.input("Type your account's e-mail address to delete it:")).trim();
    if (typed === '') throw new CliError('Not deleted: no address was typed.', 1, 'cancelled');
  }
  const deleted = await scrub.account.delete(typed);
  if ((await context.output()) === 'json') {
    context.io.stdout.write(`${JSON.stringify(deleted, null, 2)}\n`);
    return;
  }
  context.io.stdout.write(`${deleted.message}\n`);
}
