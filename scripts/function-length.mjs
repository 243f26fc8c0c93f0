// The code shape `pnpm lint` keeps (docs/architecture.md, "Code shape"), over every package's `src/`:
// - no function over 100 lines: a long function is split into named steps;
// - no source file over 500 lines unless its head says why it is kept whole, in a line starting
//   `// Over 500 lines, kept whole:` among its first 40 lines;
// - no source file over 700 lines at all.
// Tests, generated files and shipped migrations are left as they are.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FUNCTION_LINES = 100;
const MAX_FILE_LINES = 500;
const MAX_KEPT_WHOLE_LINES = 700;
const KEPT_WHOLE = /^\/\/ Over 500 lines, kept whole: \S/;
const HEAD_LINES = 40;
const root = join(import.meta.dirname, '..');

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'migrations' && entry.name !== 'generated') yield* sources(path);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** A function's name as a reader finds it: its own, or the variable, property or method it is. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, 'packages', entry.name, 'src')))
  .map((entry) => join(root, 'packages', entry.name, 'src'));

const longFunctions = [];
const longFiles = [];
for (const dir of packages) {
  for (const path of sources(dir)) {
    const name = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const length = lines.length - (lines.at(-1) === '' ? 1 : 0);
    if (length > MAX_KEPT_WHOLE_LINES) {
      longFiles.push(`${name} (${length} lines; over ${MAX_KEPT_WHOLE_LINES}, split it)`);
    } else if (length > MAX_FILE_LINES && !lines.slice(0, HEAD_LINES).some((line) => KEPT_WHOLE.test(line))) {
      longFiles.push(
        `${name} (${length} lines; split it, or say why at its head: "// Over 500 lines, kept whole: ...")`,
      );
    }
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = file.getLineAndCharacterOfPosition(node.end).line;
        const span = last - first + 1;
        if (span > MAX_FUNCTION_LINES)
          longFunctions.push(`${name}:${first + 1} ${nameOf(node)} (${span} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}
if (longFunctions.length > 0) {
  console.error(
    `Functions over ${MAX_FUNCTION_LINES} lines (split them into named steps):\n  ${longFunctions.join('\n  ')}`,
  );
}
if (longFiles.length > 0) console.error(`Source files too long:\n  ${longFiles.join('\n  ')}`);
if (longFunctions.length > 0 || longFiles.length > 0) process.exit(1);
