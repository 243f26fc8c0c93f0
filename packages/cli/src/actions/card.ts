import { spawn } from 'node:child_process';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { note } from '../input.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';

export async function cardList(context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const cards = await scrub.payments.listMethods();
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(cards, null, 2)}\n`);
    return;
  }
  if (cards.length === 0) {
    note(context, 'No card saved: add one with scrub card add.');
    return;
  }
  const rows = cards.map((c) => [
    c.id,
    c.brand,
    c.last4,
    `${String(c.exp_month).padStart(2, '0')}/${c.exp_year}`,
    c.is_default ? 'yes' : '',
  ]);
  stdout.write(
    `${await renderTable(['Id', 'Brand', 'Last 4', 'Expires', 'Default'], rows, useColor(context.io))}\n`,
  );
}

/** Opens a URL in the person's browser; a failure only means they open the printed link themselves. */
function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
}

/**
 * Card numbers are typed into the card form of the dashboard (Stripe's fields, or the service's
 * stand-in), never into a terminal or a script: this prints the page's address and opens it at
 * a terminal. The page asks the person to sign in if the browser has no session.
 */
export async function cardAdd(context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const url = `${scrub.baseURL}/card?returnUrl=AccountInfo`;
  const { stdout } = context.io;
  if ((await context.output()) === 'json') stdout.write(`${JSON.stringify({ url }, null, 2)}\n`);
  else stdout.write(`${url}\n`);
  if (context.io.stdout.isTTY && context.canPrompt) {
    openInBrowser(url);
    note(
      context,
      'Opened the card page in your browser; add the card there, then see it with scrub card list.',
    );
  }
}

export async function cardDefault(id: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const message = await scrub.payments.setDefaultMethod(id);
  const { stdout } = context.io;
  if ((await context.output()) === 'json') stdout.write(`${JSON.stringify({ message }, null, 2)}\n`);
  else stdout.write(`${message}\n`);
}
