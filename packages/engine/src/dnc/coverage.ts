import { npaTable } from '../generated/npa-table.ts';
import { lookUpNpa } from '../nanpa/npa-table.ts';
import { AREA_CODES, EXCHANGES_PER_AREA_CODE, LARGEST_NUMBER, LINES_PER_EXCHANGE } from './encoding.ts';

const STATE_PREFIX = 'state:';

// The US state or territory each geographic area code serves (NJ, PR), from the committed NPA table.
const STATE_OF_AREA_CODE = Array.from({ length: AREA_CODES }, (_, npa) => {
  const info = lookUpNpa(npaTable, npa);
  return info.status === 'geographic' && info.country === 'US' ? info.region : null;
});

/**
 * Per area code, the lists whose silence about a number in it means something (bit i: list i):
 * a list that would hold the number if its owner had registered it. The federal registry and an
 * account's internal list cover every number; `state:XX` covers the area codes of state XX only
 * (a Texas list not holding a New Jersey number says nothing about it). Any other name covers
 * every number. A list that holds a number was consulted whatever its coverage.
 */
export function coverageByAreaCode(names: readonly string[]): Uint32Array {
  const masks = new Uint32Array(AREA_CODES);
  names.forEach((name, i) => {
    const bit = (1 << i) >>> 0;
    const state = name.startsWith(STATE_PREFIX) ? name.slice(STATE_PREFIX.length) : null;
    for (let npa = 0; npa < AREA_CODES; npa++) {
      if (state === null || STATE_OF_AREA_CODE[npa] === state) masks[npa] = (masks[npa]! | bit) >>> 0;
    }
  });
  return masks;
}

/** The area code of a 10-digit number given as an integer; -1 for anything else. */
export function areaCodeOf(number: number): number {
  if (!(number >= 0 && number <= LARGEST_NUMBER)) return -1;
  return (number / (LINES_PER_EXCHANGE * EXCHANGES_PER_AREA_CODE)) | 0;
}
