import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { note } from '../input.js';
import { useColor } from '../io.js';
import { openInBrowser } from '../open-browser.js';
import { renderTable } from '../table.js';

export async function cardList(context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const cards = await scrub.cards.listMethods();
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

/**
 * Card numbers are typed into the card form of the dashboard (Stripe's fields, or the service's
 * stand-in), never into a terminal or a script: this prints a single-use link to that page (15
 * minutes, no sign-in needed in the browser) and opens it at a terminal.
 */
export async function cardAdd(context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const link = await scrub.cards.createCardLink();
  const { stdout } = context.io;
  if ((await context.output()) === 'json') stdout.write(`${JSON.stringify(link, null, 2)}\n`);
  else stdout.write(`${link.url}\n`);
  const until = new Date(link.expires_at).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  if (context.io.stdout.isTTY && context.canPrompt) {
    openInBrowser(link.url);
    note(
      context,
      `Opened the card page in your browser; add the card there (the link works once, until ${until}), then see it with scrub card list.`,
    );
  } else {
    note(context, `Open the link in a browser to add the card: it works once, until ${until}.`);
  }
}

export async function cardDefault(id: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const message = await scrub.cards.setDefaultMethod(id);
  const { stdout } = context.io;
  if ((await context.output()) === 'json') stdout.write(`${JSON.stringify({ message }, null, 2)}\n`);
  else stdout.write(`${message}\n`);
}

export async function cardRemove(id: string, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const message = await scrub.cards.removeMethod(id);
  const { stdout } = context.io;
  if ((await context.output()) === 'json') stdout.write(`${JSON.stringify({ message }, null, 2)}\n`);
  else stdout.write(`${message}\n`);
}
