import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));

/** Every module `entry` imports, directly or not, with the specifiers each one names. */
function moduleGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (path: string) => {
    if (graph.has(path)) return;
    const code = readFileSync(path, 'utf8');
    const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
    graph.set(path, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(join(dirname(path), specifier));
    }
  };
  visit(join(src, entry));
  return graph;
}

describe('@scrub/engine/preview', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('imports nothing but its own modules: no Node built-ins, no packages', () => {
    const graph = moduleGraph('preview.ts');
    expect([...graph.keys()].map((path) => path.slice(src.length + 1)).sort()).toEqual([
      'calling-codes.ts',
      'csv/column-name.ts',
      'csv/csv-error.ts',
      'csv/dialect.ts',
      'csv/formula.ts',
      'csv/preview-head.ts',
      'csv/row-scanner.ts',
      'parse-phone.ts',
      'preview.ts',
    ]);
    for (const [path, specifiers] of graph) {
      expect(
        specifiers.filter((specifier) => !specifier.startsWith('.')),
        path,
      ).toEqual([]);
    }
  });

  it('runs where there is no Buffer and no process, as in a browser', async () => {
    vi.stubGlobal('Buffer', undefined);
    vi.stubGlobal('process', undefined);
    const { isFormulaCell, previewCsvHead } = await import('./preview.ts');
    // UTF-16 (little-endian, with its byte-order mark) is decoded with TextDecoder, not Buffer.
    const text = 'Name,Phone\n"Ann ""A""",201-234-5678\n';
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((char) => [char.charCodeAt(0), 0])]);

    const preview = previewCsvHead(utf16);

    expect(preview).toMatchObject({
      header: ['Name', 'Phone'],
      rows: [['Ann "A"', '201-234-5678']],
      phoneColumn: 1,
    });
    expect(isFormulaCell('=1+2')).toBe(true);
  });
});
