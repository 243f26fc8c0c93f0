import { createHash, type Hash } from 'node:crypto';
import { type ProblemLog, StopReading } from './import-report.ts';
import { type DncInput, InputError, inputFiles } from './input.ts';

/**
 * Reads every file of an import's input with `readFile`, hashing the bytes as they pass. The log's
 * limit (StopReading) ends the reading early; an input that cannot be read (InputError: not a zip,
 * a corrupt one) is a problem at `failedAt()`, the line reached. Then the log decides whether the
 * import stands. Returns the input's SHA-256.
 */
export async function readInput(
  input: DncInput,
  log: ProblemLog,
  failedAt: () => number,
  readFile: (chunks: AsyncIterable<Buffer>) => Promise<void>,
): Promise<string> {
  const hash = createHash('sha256');
  let stoppedEarly = false;
  try {
    for await (const file of inputFiles(input)) {
      log.file = file.name ?? undefined;
      await readFile(hashed(file.chunks, hash));
    }
  } catch (error) {
    if (error instanceof StopReading) stoppedEarly = true;
    else if (error instanceof InputError) log.fail(failedAt(), error.message);
    else throw error;
  }
  log.check(stoppedEarly);
  return hash.digest('hex');
}

async function* hashed(chunks: AsyncIterable<Buffer>, hash: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    hash.update(chunk);
    yield chunk;
  }
}
