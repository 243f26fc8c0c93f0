/** A page of a listing and the counts every paged answer carries. */
export interface ListingPage<Row> {
  rows: Row[];
  page: number;
  limit: number;
  total_pages: number;
  total: number;
}

/**
 * Page `page` of a listing (`limit` rows a page): its rows, read by `rows(limit, offset)`, and the
 * count of all of them, read by `count()` at the same time.
 */
export async function pagedListing<Row>(
  rows: (limit: number, offset: number) => Promise<Row[]>,
  count: () => Promise<{ total: string | number | bigint }>,
  { page, limit }: { page: number; limit: number },
): Promise<ListingPage<Row>> {
  const [found, counted] = await Promise.all([rows(limit, (page - 1) * limit), count()]);
  const total = Number(counted.total);
  return { rows: found, page, limit, total_pages: Math.max(1, Math.ceil(total / limit)), total };
}
