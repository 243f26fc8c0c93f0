import { Command } from 'commander';
import type { Context } from '../context.js';
import {
  CALLABLE_NOW_OPTION_HELP,
  collect,
  collectList,
  collectListNames,
  LISTS_OPTION_HELP,
} from '../option-values.js';

export function bulkCommand(context: Context): Command {
  return new Command('bulk')
    .description(
      'scrub a CSV file: every row comes back with Line Type and DNC columns (one credit per unique number)',
    )
    .argument('<file>', 'the CSV file, or - to read it from stdin')
    .option(
      '--phone-col <column>',
      'the phone column: its header text, or its number counting from 1 (asked for at a terminal when left out)',
    )
    .option('--no-header', 'the file has no header row: its first row is a record')
    .option(
      '--map <field=column>',
      'map an optional column, by header text or number (repeatable); fields: first_name, last_name, full_name, business_name, email, street_address, street_address_2, city, state, postal_code, dob',
      collect,
    )
    .option(
      '--mapped-headers',
      'name the --map columns in the result with the standard headers (First Name, Email...); the cells stay as sent',
    )
    .option(
      '--columns <columns>',
      "add optional result columns, comma-separated: timezone (the area code's time zones), callable_now (1 inside 08:00-21:00 local time in every zone when the file is scrubbed), line_type_source (what each line type rests on: exchange, thousands_block, number_override, sample, numbering_plan)",
    )
    .option('--lists <names>', `${LISTS_OPTION_HELP}: one List: <name> column each`, collectListNames)
    .option(
      '--consent-col <column>',
      "the column of each row's consent date (YYYY-MM-DD or M/D/YYYY), by header text or number: adds a Reassigned column (1 disconnected since consent, 0 not, empty no data) at 1 + the reassigned-number price a record",
    )
    .option(
      '--lookup <kind>',
      'carrier: also ask a live carrier lookup of each distinct valid number (the service must offer it): adds Line Type Source and Ported columns, at the lookup price a record, given back for numbers the provider does not answer; never streamed',
    )
    .option('--name <name>', "the file name the dashboard shows (default: the file's name, or stdin.csv)")
    .option('--wait', 'wait for the job to end, then print the result CSV')
    .option('-y, --yes', 'at a terminal, submit without showing the cost and asking first')
    .option('-o, --output <file>', 'with --wait: write the result CSV to this file, and the job to stdout')
    .option(
      '--line-type <types>',
      'with --wait: only rows of these line types, comma-separated: mobile, landline, voip, toll_free, unknown_geographic, invalid',
    )
    .option('--dnc <0|1>', 'with --wait: only clean rows (0) or only do-not-call rows (1)')
    .option('--callable-now <0|1>', `with --wait and --columns callable_now: ${CALLABLE_NOW_OPTION_HELP}`)
    .option(
      '--fail-on <conditions>',
      'with --wait: after the result, exit 5 when any row is one of: dnc, unchecked (no do-not-call list covers it), invalid, mobile, landline, voip, toll_free, unknown_geographic (comma-separated or repeated)',
      collectList,
    )
    .action(async (file: string, options: unknown) => {
      const { bulk } = await import('../actions/bulk.js');
      await bulk(file, options, context);
    });
}
