// Synthetic reference data in the real formats, for tests: the engine's fixtures, written to files
// as an operator would have them. No real registry or exchange data is ever committed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export { exchangeNumbers, fullListText, zipOf } from '@scrub/test-fixtures/dnc';
export {
  CO_CODE_FILE,
  NUMBER_OVERRIDES_CSV,
  OCN_LINE_TYPES_CSV,
  THOUSANDS_BLOCK_FILE,
} from '@scrub/test-fixtures/exchange';

/**
 * Today (UTC) as `YYYY-MM-DD`: a release date for federal and state lists that stays fresh for the
 * test's length, whenever it runs.
 */
export const RELEASED_TODAY = new Date().toISOString().slice(0, 10);

/** Writes a file into `dir` and returns its path. NANPA's files are latin1. */
export function writeFixture(
  dir: string,
  name: string,
  content: string | Buffer,
  encoding: BufferEncoding = 'utf8',
): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? Buffer.from(content, encoding) : content);
  return path;
}
