import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Packages the browser entry may load: its own dependencies, both free of Node built-ins. */
const BROWSER_SAFE_PACKAGES = ['@scrub/contract', 'amazon-cognito-identity-js'];

/** Every module specifier of a source file: static imports, re-exports and `import()`. */
function specifiers(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm);
  return [...found].map((match) => match[1] as string);
}

/** The SDK's own modules reachable from `entry`, and the outside specifiers they import. */
function moduleGraph(entry: string) {
  const modules = new Set<string>();
  const outside = new Map<string, string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (specifier.endsWith('.json')) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else outside.set(specifier, file.slice(SRC.length + 1));
    }
  };
  visit(resolve(SRC, entry));
  return { modules, outside };
}

describe('the browser entry', () => {
  const { modules, outside } = moduleGraph('browser.ts');

  it('imports no Node built-in, at any depth', () => {
    const builtIns = [...outside].filter(([specifier]) => specifier.startsWith('node:'));
    expect(builtIns).toEqual([]);
  });

  it('imports no package but its browser-safe dependencies', () => {
    expect([...outside.keys()].filter((name) => !BROWSER_SAFE_PACKAGES.includes(name))).toEqual([]);
  });

  it('leaves out the Node path reader, which the Node entry adds', () => {
    expect(modules.has(resolve(SRC, 'core/path-source.ts'))).toBe(false);
    expect(moduleGraph('index.ts').modules.has(resolve(SRC, 'core/path-source.ts'))).toBe(true);
  });

  it('is walked for real: the Node entry is seen to import node:fs', () => {
    expect([...moduleGraph('index.ts').outside.keys()]).toContain('node:fs');
  });
});
