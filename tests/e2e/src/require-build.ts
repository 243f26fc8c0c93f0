import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The tests import and spawn the packages' builds. When those are missing, say so here, before a
// test file's imports fail with a resolution error that does not say what to do.
const artefacts = [
  '@scrub/engine/dist/index.js',
  '@scrub/sdk/dist/index.js',
  '@scrub/server/dist/index.js',
  '@scrub/server/dist/bin.js',
  '@scrub/cli/dist/bin.js',
];
const missing = artefacts.filter(
  (artefact) => !existsSync(fileURLToPath(new URL(`../node_modules/${artefact}`, import.meta.url))),
);
if (missing.length > 0) {
  throw new Error(`Not built: ${missing.join(', ')}. Run the build first: npx -y pnpm@10 run build`);
}
