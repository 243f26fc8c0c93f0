import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each `import ... from '<specifier>'` of a file, and whether it is `import type` (erased at run time). */
function staticImports(text: string): { specifier: string; typeOnly: boolean }[] {
  return [...text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^']+)';/gms)].map((match) => ({
    specifier: match[2] ?? '',
    typeOnly: match[1] !== undefined,
  }));
}

describe('tracing while off', () => {
  const files = sourceFiles(SRC).map((path) => ({
    file: relative(SRC, path),
    text: readFileSync(path, 'utf8'),
  }));

  it('loads nothing of the OpenTelemetry SDK: only open-telemetry.ts imports it, and only setup.ts loads that, on demand', () => {
    const loading = files.flatMap(({ file, text }) =>
      staticImports(text)
        .filter((i) => !i.typeOnly)
        .filter(
          (i) => i.specifier.startsWith('@opentelemetry/') || i.specifier.endsWith('/open-telemetry.js'),
        )
        .map((i) => `${file} -> ${i.specifier}`),
    );
    // The reading finds the SDK's imports where they are...
    expect(loading).toContain('tracing/open-telemetry.ts -> @opentelemetry/sdk-trace');
    // ...and nowhere else.
    expect(loading.filter((line) => !line.startsWith('tracing/open-telemetry.ts ->'))).toEqual([]);
    const dynamic = files.filter(({ text }) => text.includes("import('./open-telemetry.js')"));
    expect(dynamic.map(({ file }) => file)).toEqual(['tracing/setup.ts']);
  });
});
