import { Command } from 'commander';
import type { Context } from '../context.js';
import { CALLABLE_NOW_OPTION_HELP } from '../option-values.js';

export function exportCommand(context: Context): Command {
  return new Command('export')
    .description("download a bulk job's result CSV, filtered by line type, DNC and calling window")
    .argument('<file_reference>', 'the file reference, from scrub bulk or scrub files')
    .option(
      '--line-type <types>',
      'only rows of these line types, comma-separated: mobile, landline, voip, toll_free, unknown_geographic, invalid',
    )
    .option('--dnc <0|1>', 'only clean rows (0) or only do-not-call rows (1)')
    .option('--callable-now <0|1>', CALLABLE_NOW_OPTION_HELP)
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--upload', 'download the file as it was uploaded instead of the result')
    .option(
      '--email [addresses]',
      "e-mail the result's links (filtered as asked) instead of downloading: to your own address, or to these comma-separated ones (at most 5)",
    )
    .action(async (fileReference: string, options: unknown) => {
      const { exportFile } = await import('../actions/export.js');
      await exportFile(fileReference, options, context);
    });
}
