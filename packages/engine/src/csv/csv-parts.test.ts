import { mulberry32 } from '@scrub/test-fixtures';
import { describe, expect, it } from 'vitest';
import { partsOf, RecordSplitter } from './csv-parts.ts';
import type { CsvLineEnding, CsvSeparator } from './dialect.ts';
import { RowScanner } from './row-scanner.ts';

/** Where the row scanner starts each record of `bytes` (the truth a cut must agree with). */
function recordStarts(bytes: Buffer, separator: CsvSeparator, lineEnding: CsvLineEnding): Set<number> {
  const scanner = new RowScanner(separator, lineEnding, bytes.length + 1);
  const starts = new Set<number>([0]);
  for (let at = 0; at < bytes.length; ) {
    at = scanner.scan(bytes, at, bytes.length, true);
    starts.add(at);
  }
  return starts;
}

/** Each cut the splitter makes, from every offset: the first record start after a line break, at or past it. */
function expectCuts(bytes: Buffer, separator: CsvSeparator, lineEnding: CsvLineEnding) {
  const terminator = lineEnding === '\r' ? 0x0d : 0x0a;
  const starts = [...recordStarts(bytes, separator, lineEnding)]
    .filter((start) => start > 0 && bytes[start - 1] === terminator)
    .sort((a, b) => a - b);
  for (let from = 1; from <= bytes.length; from++) {
    const cut = new RecordSplitter(separator, lineEnding).cut(bytes, from);
    expect({ from, cut }).toEqual({ from, cut: starts.find((start) => start >= from) ?? -1 });
  }
}

describe('RecordSplitter', () => {
  it('cuts only where the row scanner starts a record: quoted line breaks, doubled quotes, quotes inside fields', () => {
    const file = Buffer.from(
      ['a,"line\nbreak",b', '"x""\n""y",z', 'ab"c,"d\ne"', '"q"r"\n,s', '', ',"",""""', 'tail'].join('\r\n'),
    );
    expectCuts(file, ',', '\r\n');
  });

  it('agrees with the row scanner on random bytes of quotes, separators and line breaks', () => {
    const random = mulberry32(16);
    const alphabet = ['a', ',', ';', '"', '"', '\n', '\r', '\r\n', 'b'];
    for (let round = 0; round < 300; round++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 40) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      const bytes = Buffer.from(text);
      const separator: CsvSeparator = round % 2 ? ';' : ',';
      const lineEnding: CsvLineEnding = round % 3 === 0 ? '\r' : '\n';
      try {
        recordStarts(bytes, separator, lineEnding);
      } catch {
        continue; // a quote never closed: the scrub refuses the file
      }
      expectCuts(bytes, separator, lineEnding);
    }
  });
});

describe('partsOf', () => {
  it('cuts a file into parts of about their size, each ending where a record does, the last at the end', async () => {
    const file = Buffer.from(`h1,h2\n${Array.from({ length: 200 }, (_, i) => `"${i}\n${i}",x`).join('\n')}`);
    const chunks = (async function* () {
      for (let at = 0; at < file.length; at += 7) yield file.subarray(at, at + 7);
    })();
    const parts = [];
    for await (const part of partsOf(chunks, new RecordSplitter(',', '\n'), { first: 10, rest: 100 })) {
      parts.push({ text: Buffer.from(part.bytes).toString(), last: part.last });
    }
    expect(parts.map((part) => part.text).join('')).toBe(file.toString());
    expect(parts.map((part) => part.last)).toEqual([...parts.slice(1).map(() => false), true]);
    expect(parts[0]!.text).toBe('h1,h2\n"0\n0",x\n');
    for (const part of parts.slice(1, -1)) {
      expect(part.text.length).toBeGreaterThanOrEqual(100);
      expect(part.text).toMatch(/^"\d+\n\d+",x\n("\d+\n\d+",x\n)*$/);
    }
  });

  it('hands over a part that finds no record start within the row limit uncut, as the last', async () => {
    const file = Buffer.from(`a,b\n"${'x'.repeat(500)}`);
    const parts = [];
    for await (const part of partsOf([file], new RecordSplitter(',', '\n'), { first: 10, rest: 10 }, 100)) {
      parts.push(part);
    }
    expect(parts.map((part) => part.last)).toEqual([false]);
  });
});
