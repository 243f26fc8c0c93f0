import { z } from 'zod';

/**
 * A paged listing's query: `page` (from 1) and `limit` (1 to 200 a page, 50 when not sent), with
 * `items` naming what a page holds in the limit's description ("Checks", "Entries").
 */
export function pageQueryFields(items: string) {
  return {
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(200)
      .default(50)
      .describe(`${items} per page, 1 to 200 (default 50)`),
  };
}

/**
 * A page of a paged listing, named `id` in /openapi.json: the page's items under `key`, then
 * `page`, `limit`, `total_pages` and `total` (the items that match, on every page).
 */
export function pageSchema<Key extends string, Item extends z.ZodType>(id: string, key: Key, item: Item) {
  const items = { [key]: z.array(item) } as Record<Key, z.ZodArray<Item>>;
  return z
    .object({
      ...items,
      page: z.number().int(),
      limit: z.number().int(),
      total_pages: z.number().int(),
      total: z.number().int(),
    })
    .meta({ id });
}
