import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The workspace's root: every path below is relative to it, with forward slashes. */
export const ROOT = resolve(import.meta.dirname, '../../..');

/** One workspace package: `packages/server`, `tests/e2e`, `examples/curl`. */
export interface Package {
  dir: string;
  /** Its TypeScript files (src, test, bench, scripts), tests included. */
  files: string[];
}

/** An import as written in a file, and the file of this tree it names (null: a package, or no file). */
export interface Import {
  from: string;
  specifier: string;
  to: string | null;
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', '.data']);

export const isTest = (file: string) => /\.test\.tsx?$/.test(file) || /\/test\//.test(file);

function walk(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every workspace package (`packages/*`, `tests/*`, `examples/*`) with its TypeScript files. */
export function workspacePackages(): Package[] {
  return ['packages', 'tests', 'examples'].flatMap((group) =>
    readdirSync(join(ROOT, group))
      .filter((name) => existsSync(join(ROOT, group, name, 'package.json')))
      .map((name) => {
        const dir = `${group}/${name}`;
        return { dir, files: ['src', 'test', 'bench', 'scripts'].flatMap((sub) => walk(`${dir}/${sub}`)) };
      }),
  );
}

/** The module specifiers a file imports or re-exports, dynamic `import('...')` included. */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names: `./a.js` is `a.ts` or `a.tsx`, `./a` may be `a/index.ts`. */
function resolveRelative(from: string, specifier: string): string | null {
  const base = join(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|mjs|cjs|ts|tsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(stem, 'index.ts')];
  const hit = candidates.find((c) => existsSync(join(ROOT, c)) && statSync(join(ROOT, c)).isFile());
  return hit && SOURCE.test(hit) ? relative(ROOT, join(ROOT, hit)).split('\\').join('/') : null;
}

export function importsOf(file: string): Import[] {
  return specifiersOf(file).map((specifier) => ({
    from: file,
    specifier,
    to: specifier.startsWith('.') ? resolveRelative(file, specifier) : null,
  }));
}

/** The circles of a graph: its strongly connected components of more than one file, or a file importing itself. */
export function circlesOf(edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.has(node)) circles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return circles;
}
