import { findColumnByName } from './column-name.ts';
import { plural } from './csv-counts.ts';
import { CsvError } from './csv-error.ts';

/** Refuses a phone column that is neither a header name nor a 0-based index, before a file is read. */
export function checkPhoneColumn(phoneColumn: string | number): void {
  const valid =
    typeof phoneColumn === 'string'
      ? phoneColumn.trim() !== ''
      : Number.isInteger(phoneColumn) && phoneColumn >= 0;
  if (!valid) {
    throw new RangeError(
      `The phone column is a header name or a 0-based index, not ${JSON.stringify(phoneColumn)}`,
    );
  }
}

/**
 * The phone column's index in a file's first row: found by name in the header (`names`), or given
 * by index and within the row's `fields`. Throws the `CsvError` a file is refused with.
 */
export function phoneColumnOf(
  phoneColumn: string | number,
  names: readonly string[] | null,
  fields: number,
  line: number,
): number {
  if (typeof phoneColumn === 'string') {
    if (names === null) {
      throw new CsvError(
        'csv_column_not_found',
        `The phone column is given by name (${JSON.stringify(phoneColumn)}), but the file has no header row: give its number instead (0 for the first column)`,
      );
    }
    const found = findColumnByName(names, phoneColumn);
    if (found === -1) {
      const shown = names.slice(0, 30).map((name) => JSON.stringify(name.trim()));
      if (names.length > 30) shown.push(`and ${names.length - 30} more`);
      throw new CsvError(
        'csv_column_not_found',
        `No column ${JSON.stringify(phoneColumn.trim())} in the header row (columns: ${shown.join(', ')})`,
        line,
      );
    }
    return found;
  }
  if (phoneColumn >= fields) {
    const row = names === null ? 'first row' : 'header row';
    throw new CsvError(
      'csv_column_out_of_range',
      `Phone column ${phoneColumn} is out of range: the ${row} has ${plural(fields, 'column')} (0 to ${fields - 1})`,
      line,
    );
  }
  return phoneColumn;
}
