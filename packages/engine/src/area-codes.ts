import { npaTable } from './generated/npa-table.ts';
import { type AreaCodeInfo, lookUpNpa } from './nanpa/npa-table.ts';

/**
 * What NANPA's area-code report says about an area code: its use, the country and region it
 * serves, and whether it is in service. Accepts 201 or '201'; codes outside 200-999 are `invalid`.
 * Throws RangeError for anything that is not a three-digit code.
 */
export function areaCodeInfo(npa: number | string): AreaCodeInfo {
  const code = typeof npa === 'string' && /^\d{3}$/.test(npa) ? Number(npa) : npa;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 0 || code > 999) {
    throw new RangeError(`not a three-digit area code: ${JSON.stringify(npa)}`);
  }
  return lookUpNpa(npaTable, code);
}

/** The versions of the reference data the engine answers from, for `/health`. */
// A type alias, not an interface, so it fits the Record<string, string> that /health reports.
export type ReferenceDataVersions = {
  /** File date of NANPA's NPA report, ISO. */
  nanpa_npa: string;
};

export function referenceDataVersions(): ReferenceDataVersions {
  return { nanpa_npa: npaTable.fileDate };
}
