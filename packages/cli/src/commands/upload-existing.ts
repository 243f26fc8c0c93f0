import { Command } from 'commander';
import type { Context } from '../context.js';

export function uploadExistingCommand(context: Context): Command {
  return new Command('upload-existing')
    .description(
      'store a CSV already scrubbed elsewhere as a file (Direct DB): every line type is checked, nothing is charged',
    )
    .argument('<file>', 'the CSV file, or - to read it from stdin; it must have a header row')
    .requiredOption(
      '--phone-col <column>',
      'the phone column: its header text, or its number counting from 1',
    )
    .requiredOption(
      '--line-type-col <column>',
      'the line type column (mobile, landline, voip, toll_free, invalid, unknown_geographic; any case)',
    )
    .option('--dnc-col <column>', 'the do-not-call column (0 or 1, clean or dnc, yes or no)')
    .option('--name <name>', "the file name the dashboard shows (default: the file's name, or stdin.csv)")
    .action(async (file: string, options: unknown) => {
      const { uploadExisting } = await import('../actions/upload-existing.js');
      await uploadExisting(file, options, context);
    });
}
