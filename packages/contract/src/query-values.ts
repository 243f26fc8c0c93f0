/**
 * The one rule for empty query values (`?header_row=`), on every route: an empty value is taken as
 * absent, as if the parameter had not been sent, so `header_row=` means the default, never 0.
 * The exception is a parameter whose empty value is documented to mean something: `lists=` asks
 * for no operator list at all.
 */
export const QUERY_PARAMS_WHERE_EMPTY_MEANS_SOMETHING: ReadonlySet<string> = new Set(['lists']);

/** The query with every empty value dropped (but those `QUERY_PARAMS_WHERE_EMPTY_MEANS_SOMETHING` keep). */
export function withoutEmptyQueryValues<T extends Record<string, unknown>>(query: T): T {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === '' && !QUERY_PARAMS_WHERE_EMPTY_MEANS_SOMETHING.has(name)) continue;
    kept[name] = value;
  }
  return kept as T;
}
