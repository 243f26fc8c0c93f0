import type { AccountLists } from '@scrub/sdk';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { UsageError } from '../errors.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';

/**
 * `scrub account lists` shows the operator lists (known litigators...) the account counts by
 * default and every one there is; `scrub account lists litigators,vendor-x` sets the default,
 * `--none` clears it. A hit is a risk flag beside DNC, never DNC.
 */
export async function accountLists(
  names: string[],
  options: { none?: boolean },
  context: Context,
): Promise<void> {
  const chosen = names
    .flatMap((name) => name.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  if (options.none && chosen.length > 0) throw new UsageError('--none clears the lists: name none with it');
  const { scrub } = await requireCredentials(context);
  const settings =
    options.none || chosen.length > 0 ? await scrub.account.setLists(chosen) : await scrub.account.lists();
  await printLists(context, settings);
}

async function printLists(context: Context, { lists, available }: AccountLists): Promise<void> {
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify({ lists, available }, null, 2)}\n`);
    return;
  }
  if (available.length === 0) {
    stdout.write('The operator has imported no lists beside the do-not-call lists.\n');
    return;
  }
  const rows = available.map((list) => [
    list.name,
    lists.includes(list.name) ? 'yes' : 'no',
    list.released_on ?? '-',
    list.numbers.toLocaleString('en-US'),
  ]);
  stdout.write(
    `${await renderTable(['List', 'Default', 'Released', 'Numbers'], rows, useColor(context.io))}\n`,
  );
  stdout.write(
    lists.length === 0
      ? 'No list counts by default: name them per check or job with --lists, or set a default with scrub account lists <names>.\n'
      : `Checked by default: ${lists.join(', ')} (a hit is a flag beside DNC, not DNC).\n`,
  );
}
