import { Command } from 'commander';
import type { Context } from '../context.js';

export function logCommand(context: Context): Command {
  return new Command('log')
    .description(
      'the phone log: every single check of your account, newest first; with --file, a bulk result row by row',
    )
    .option('--file <reference>', "review a bulk result's rows (its file reference), a page at a time")
    .option('--search <text>', 'with --file: rows whose number or mapped name, e-mail... contains this')
    .option('--number <text>', 'only checks of numbers containing this (digits compared)')
    .option(
      '--line-type <types>',
      'only these line types, comma-separated (mobile,landline,voip,toll_free,invalid)',
    )
    .option('--dnc <0|1|all>', '1: on a do-not-call list; 0: clean')
    .option('--from <YYYY-MM-DD>', 'checks from this day on (UTC)')
    .option('--to <YYYY-MM-DD>', 'checks up to this day, included (UTC)')
    .option('--source <source>', 'how they came in: api_key, token (signed in) or act_as (an admin acting)')
    .option('--page <n>', 'the page to show (default 1)')
    .option('--limit <n>', 'checks per page, 1 to 200 (default 50)')
    .option('--all', 'every check of every page')
    .option('--csv', 'the CSV export of every matching check')
    .option('-o, --output <file>', 'with --csv: write the CSV to this file instead of stdout')
    .action(async (options: unknown) => {
      const { log } = await import('../actions/log.js');
      await log(options, context);
    });
}
