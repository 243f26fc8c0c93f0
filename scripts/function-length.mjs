// Fails when a function in the server's or the CLI's sources is over 100 lines (docs/architecture.md,
// "Code shape"): a long function is split into named steps. Shipped migrations are left as they are.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_LINES = 100;
const ROOTS = ['packages/server/src', 'packages/cli/src'];
const root = join(import.meta.dirname, '..');

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'migrations' && entry.name !== 'generated') yield* sources(path);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

const long = [];
for (const dir of ROOTS) {
  for (const path of sources(join(root, dir))) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = file.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > MAX_LINES)
          long.push(`${relative(root, path)}:${first + 1} (${last - first + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}
if (long.length > 0) {
  console.error(`Functions over ${MAX_LINES} lines (split them into named steps):\n  ${long.join('\n  ')}`);
  process.exit(1);
}
