import { Command } from 'commander';
import type { Context } from '../context.js';

export function cardCommand(context: Context): Command {
  const card = new Command('card').description('saved cards');
  card
    .command('list')
    .description('the saved cards; the default one is charged by scrub buy')
    .action(async () => {
      const { cardList } = await import('../actions/card.js');
      await cardList(context);
    });
  card
    .command('add')
    .description(
      'add a card in the dashboard: prints (and at a terminal opens) its card page; card numbers never pass through scrub',
    )
    .action(async () => {
      const { cardAdd } = await import('../actions/card.js');
      await cardAdd(context);
    });
  card
    .command('default')
    .description('make a saved card the default one')
    .argument('<id>', 'the card id, from scrub card list')
    .action(async (id: string) => {
      const { cardDefault } = await import('../actions/card.js');
      await cardDefault(id, context);
    });
  card
    .command('remove')
    .description('remove a saved card; when it was the default, the newest other card becomes the default')
    .argument('<id>', 'the card id, from scrub card list')
    .action(async (id: string) => {
      const { cardRemove } = await import('../actions/card.js');
      await cardRemove(id, context);
    });
  return card;
}
