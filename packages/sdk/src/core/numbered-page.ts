import { itemsFrom, type Page } from './pagination.js';

/** What every numbered list of the API answers beside its items. */
interface Numbered {
  page: number;
  total_pages: number;
}

/**
 * A numbered page of any list: the API's fields as they came, plus the way to the next pages.
 * Iterating it with `for await` yields its items and those of every page after it.
 */
export type NumberedPage<List extends Numbered, Item> = Readonly<List> & Page<Item> & { toJSON(): List };

export function numberedPage<List extends Numbered, Item>(
  list: List,
  items: (list: List) => Item[],
  fetchPage: (page: number) => Promise<NumberedPage<List, Item>>,
): NumberedPage<List, Item> {
  const page: NumberedPage<List, Item> = {
    ...list,
    getPaginatedItems: () => items(list),
    hasNextPage: () => list.page < list.total_pages,
    getNextPage: () => fetchPage(list.page + 1),
    [Symbol.asyncIterator]: () => itemsFrom(page),
    // Only the JSON the API sent, for `JSON.stringify`.
    toJSON: () => list,
  };
  return page;
}
