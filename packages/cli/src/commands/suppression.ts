import { Command } from 'commander';
import type { Context } from '../context.js';

export function suppressionCommand(context: Context): Command {
  const suppression = new Command('suppression')
    .alias('dnc')
    .description(
      "your own suppression list (internal DNC): numbers every check reports as do-not-call, as 'internal'",
    );
  suppression
    .command('add')
    .description('add numbers to the list; they count from the next check')
    .argument('<numbers...>', 'phone numbers as you write them, or - to read them from stdin, one per line')
    .action(async (numbers: string[]) => {
      const { suppressionAdd } = await import('../actions/suppression.js');
      await suppressionAdd(numbers, context);
    });
  suppression
    .command('remove')
    .description('remove numbers from the list')
    .argument('<numbers...>', 'phone numbers as you write them, or - to read them from stdin, one per line')
    .action(async (numbers: string[]) => {
      const { suppressionRemove } = await import('../actions/suppression.js');
      await suppressionRemove(numbers, context);
    });
  suppression
    .command('import')
    .description(
      'import a suppression CSV (up to 1 MiB): merge its numbers into the list, or replace the list',
    )
    .argument('<file>', 'the CSV, or - to read it from stdin')
    .option('--merge', 'add the numbers of the file to the list (the default)')
    .option('--replace', 'make the numbers of the file the whole list')
    .option('--phone-col <column>', 'the phone column: its header name or its 0-based position', '0')
    .option('--no-header', 'the file has no header row (the default when --phone-col is a position)')
    .action(async (file: string, options: unknown) => {
      const { suppressionImport } = await import('../actions/suppression.js');
      await suppressionImport(file, options, context);
    });
  suppression
    .command('list')
    .description('print the list in number order, one page (or --all)')
    .option('--search <digits>', 'only numbers containing these digits')
    .option('--page <n>', 'the page to print (default 1)')
    .option('--limit <n>', 'numbers per page, up to 1000 (default 50)')
    .option('--all', 'print every page')
    .action(async (options: unknown) => {
      const { suppressionList } = await import('../actions/suppression.js');
      await suppressionList(options, context);
    });
  suppression
    .command('export')
    .description('download the whole list as CSV (phone_number, added_at)')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (options: unknown) => {
      const { suppressionExport } = await import('../actions/suppression.js');
      await suppressionExport(options, context);
    });
  return suppression;
}
