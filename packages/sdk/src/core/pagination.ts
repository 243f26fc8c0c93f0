/** A page of a numbered list that can fetch the pages after it and walk their items. */
export interface Page<Item> extends AsyncIterable<Item> {
  /** This page's items, whatever the API calls them (`files`, `users`). */
  getPaginatedItems(): Item[];
  hasNextPage(): boolean;
  getNextPage(): Promise<Page<Item>>;
}

/** Every item of `first` and of the pages after it, each page fetched when the one before is used up. */
export async function* itemsFrom<Item>(first: Page<Item>): AsyncGenerator<Item, void, undefined> {
  for (let page = first; ; page = await page.getNextPage()) {
    yield* page.getPaginatedItems();
    if (!page.hasNextPage()) return;
  }
}

/**
 * What a list call returns: awaited, one page; iterated with `for await`, every item of every page
 * from there on. The first page is requested on first use (so a list nobody reads costs nothing
 * and cannot reject unheard), and only once.
 */
export class PagePromise<P extends Page<Item>, Item> implements PromiseLike<P>, AsyncIterable<Item> {
  #page: Promise<P> | undefined;
  readonly #load: () => Promise<P>;

  constructor(load: () => Promise<P>) {
    this.#load = load;
  }

  #first(): Promise<P> {
    this.#page ??= this.#load();
    return this.#page;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PromiseLike is what makes `await scrub.files.list()` work.
  then<A = P, B = never>(
    onFulfilled?: ((page: P) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#first().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this.#first();
  }
}
