/** An import that cannot be done as asked (no federal list to change, too many lists, no such file). */
export class DataImportError extends Error {
  override name = 'DataImportError';
}
