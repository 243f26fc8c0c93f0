import { type DncCsvOptions, importDncCsv } from './csv-list.ts';
import type { DncImport } from './import-report.ts';
import type { DncInput } from './input.ts';

/** What an operator list's dataset is called: `list:<name>` (`list:litigators`). */
export const OPERATOR_LIST_PREFIX = 'list:';

/** An operator's flag list (`list:litigators`): consulted only where a customer counts it, never for DNC. */
export function isOperatorList(name: string): boolean {
  return name.startsWith(OPERATOR_LIST_PREFIX);
}

/** An operator list's name: lowercase letters, digits and dashes, starting with a letter or digit. */
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Why `name` cannot name an operator list; null when it can. */
export function operatorListNameProblem(name: string): string | null {
  if (NAME.test(name)) return null;
  return `"${name}" cannot name a list: use lowercase letters, digits and dashes (such as litigators or tcpa-plaintiffs), at most 64`;
}

/**
 * Header names commercial litigator lists give their phone column, tried in this order when no
 * column is named: the first one found in the first row makes it a header.
 */
export const PHONE_HEADER_NAMES = [
  'phone',
  'phone number',
  'phone_number',
  'phonenumber',
  'phone no',
  'number',
  'telephone',
  'telephone number',
  'tel',
  'mobile',
  'cell',
  'wireless',
  'dnc',
] as const;

export interface OperatorListOptions extends Omit<DncCsvOptions, 'column'> {
  /** The list's name, without its prefix: `litigators`. */
  name: string;
  /** The phone column by header name or 0-based index; default: found (`PHONE_HEADER_NAMES`, else the first cell that is a number). */
  column?: string | number;
}

/**
 * An operator's own flag list (known TCPA litigators, a vendor's list), kept as CSV as vendors
 * ship them: a phone column under a usual header among other columns (name, case, state), or one
 * number per line without a header, numbers in any common spelling (`parsePhone`). The list is
 * named `list:<name>`.
 */
export async function importOperatorList(input: DncInput, options: OperatorListOptions): Promise<DncImport> {
  const problem = operatorListNameProblem(options.name);
  if (problem !== null) throw new RangeError(problem);
  const { name, column, ...rest } = options;
  return importDncCsv(input, {
    ...rest,
    name: `${OPERATOR_LIST_PREFIX}${name}`,
    column: column ?? { names: PHONE_HEADER_NAMES },
  });
}
