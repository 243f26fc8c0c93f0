import { NumberSet } from './number-set.ts';

/**
 * A scrub's valid numbers, for its duplicates: a whole file tells them apart as they come; a part of
 * a file (`scrubCsvPart`) keeps them in order instead, for the merge to tell apart across the parts.
 */
export class ValidNumbers {
  readonly #unique = new NumberSet();
  #duplicates = 0;
  #kept: Float64Array | null;
  #keptLength = 0;

  constructor(keep: boolean, room: number) {
    this.#kept = keep ? new Float64Array(room) : null;
  }

  /** Distinct numbers added (not kept). */
  get unique(): number {
    return this.#unique.size;
  }

  /** Numbers added that an earlier one had (not kept). */
  get duplicates(): number {
    return this.#duplicates;
  }

  /** The numbers kept, in order. */
  get kept(): Float64Array {
    return this.#kept!.subarray(0, this.#keptLength);
  }

  add(number: number): void {
    if (this.#kept !== null) this.#keep(number);
    else if (!this.#unique.add(number)) this.#duplicates++;
  }

  #keep(number: number): void {
    if (this.#keptLength === this.#kept!.length) {
      const grown = new Float64Array(this.#keptLength * 2);
      grown.set(this.#kept!);
      this.#kept = grown;
    }
    this.#kept![this.#keptLength++] = number;
  }
}
