import { defineProject } from 'vitest/config';

/**
 * Workspace packages resolve to their TypeScript source in tests (the `@scrub/source` export
 * condition, which Node and bundlers ignore), so a change in one package is seen by the next
 * without building it: only the binaries the e2e tests run need a build. Setting conditions
 * replaces Vite's defaults, so these are Vite's defaults with ours in front.
 */
export default defineProject({
  resolve: { conditions: ['@scrub/source', 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: ['@scrub/source', 'module', 'node', 'development|production'] } },
});
