/**
 * Whether a request asks for CSV rather than JSON: `text/csv` in its Accept header, before any
 * `application/json` (a client that takes both, JSON first, gets JSON). GET /checks and GET /usage
 * answer their `.csv` route's CSV to it.
 */
export function wantsCsv(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((type) => type.split(';')[0]!.trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.indexOf('application/json');
  return csv !== -1 && (json === -1 || csv < json);
}
