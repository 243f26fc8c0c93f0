/**
 * The one rule for finding a column by its header name: names match trimmed and in any case
 * (`" phone "` finds `Phone`). Returns the column's 0-based index, or -1 when no name matches. With
 * `last`, the last of several matching columns is taken (a scrubbed result's own Line Type and DNC
 * columns come after any of the same name in the file it was scrubbed from).
 */
export function findColumnByName(
  names: readonly string[],
  name: string,
  { last = false }: { last?: boolean } = {},
): number {
  const wanted = name.trim().toLowerCase();
  const matches = (header: string) => header.trim().toLowerCase() === wanted;
  return last ? names.findLastIndex(matches) : names.findIndex(matches);
}
