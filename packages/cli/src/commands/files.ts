import { Command } from 'commander';
import type { Context } from '../context.js';

export function filesCommand(context: Context): Command {
  const files = new Command('files')
    .description('list the files of your bulk jobs, newest first')
    .option('--search <text>', 'only files whose name contains this')
    .option('--page <n>', 'the page to show (default 1)')
    .option('--limit <n>', 'files per page, 1 to 100 (default 20)')
    .option('--all', 'every file of every page')
    .action(async (options: unknown) => {
      const { files } = await import('../actions/files.js');
      await files(options, context);
    });
  files
    .command('delete')
    .description("delete a file's upload and result now (its counts, credits and proof stay)")
    .argument('<file_reference>', 'the file, as `scrub files` shows it')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (reference: string, options: unknown) => {
      const { fileDelete } = await import('../actions/file-delete.js');
      await fileDelete(reference, options, context);
    });
  return files;
}
