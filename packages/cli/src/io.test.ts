import { describe, expect, it } from 'vitest';
import { readLines } from './io.js';

async function collect(chunks: (string | Buffer)[]): Promise<string[]> {
  async function* stream() {
    yield* chunks;
  }
  const lines: string[] = [];
  for await (const line of readLines(stream())) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('joins lines split across chunks, and keeps a last line with no newline', async () => {
    expect(await collect(['201555', '0123\n800', '5551234\r\n\n', '123'])).toEqual([
      '2015550123',
      '8005551234\r',
      '',
      '123',
    ]);
  });

  it('decodes a character whose bytes arrive in two chunks', async () => {
    const bytes = Buffer.from('２０１５５５０１２３\n'); // full-width digits, 3 bytes each
    expect(await collect([bytes.subarray(0, 4), bytes.subarray(4)])).toEqual(['２０１５５５０１２３']);
  });

  it('yields each line before the next chunk is read', async () => {
    const read: string[] = [];
    async function* source() {
      for (const chunk of ['a\n', 'b\n', 'c\n']) {
        read.push(chunk);
        yield chunk;
      }
    }
    const lines = readLines(source());
    expect((await lines.next()).value).toBe('a');
    expect(read).toEqual(['a\n']);
  });
});
