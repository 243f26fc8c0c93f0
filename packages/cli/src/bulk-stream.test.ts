import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ReplayableStdin } from './bulk-stream.js';

/** A stdin whose pieces arrive when the test says so. */
function slowStdin(pieces: string[]) {
  const arrivals: (() => void)[] = [];
  const arrived = pieces.map(
    (piece) =>
      new Promise<string>((resolve) => {
        arrivals.push(() => resolve(piece));
      }),
  );
  async function* stdin() {
    for (const piece of arrived) yield await piece;
  }
  return { stdin: stdin(), arrive: (index: number) => arrivals[index]!() };
}

describe('stdin sent again as a queued job (a service without the streaming route)', () => {
  it('keeps every byte, the piece the upload was waiting for when the service answered included', async () => {
    const { stdin, arrive } = slowStdin(['phone\r\n', '2015550123\r\n', '2015550124\r\n']);
    const replayable = new ReplayableStdin(stdin);
    const upload = replayable.chunks();
    arrive(0);
    expect((await upload.next()).value?.toString()).toBe('phone\r\n');
    // The upload asks for the next piece; the service answers 404 before it comes.
    const waiting = upload.next();
    const file = replayable.toFile();
    // The pieces come once the copy has written what was kept and waits for more.
    await new Promise((resolve) => setTimeout(resolve, 50));
    arrive(1);
    arrive(2);
    const local = await file;
    try {
      expect(readFileSync(local.path, 'utf8')).toBe('phone\r\n2015550123\r\n2015550124\r\n');
    } finally {
      await local.remove();
    }
    // The abandoned upload gets nothing more: the piece went to the file.
    expect((await waiting).done).toBe(true);
  });
});
