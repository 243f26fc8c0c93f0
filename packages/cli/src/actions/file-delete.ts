import { z } from 'zod';
import { askFirst } from '../ask-first.js';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { parseInput } from '../validate.js';

const DeleteOptionsSchema = z.object({ yes: z.boolean().optional() });

/**
 * `scrub files delete REF`: deletes a file's upload and result now, after asking (or with --yes).
 * Its counts, credits and proof of scrub stay; its downloads then answer 410.
 */
export async function fileDelete(reference: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(DeleteOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  await askFirst(context, {
    yes: options.yes,
    command: 'scrub files delete',
    question: `Delete the upload and result of ${reference} for good? Credits are not given back.`,
    declined: 'Not deleted: the file is as it was.',
  });
  const file = await scrub.files.delete(reference);
  if ((await context.output()) === 'json') {
    context.io.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
    return;
  }
  context.io.stdout.write(
    `Deleted the upload and result of ${file.file_name} (${file.file_reference}). Its counts and proof of scrub are kept.\n`,
  );
}
