import { defineProject } from 'vitest/config';

/**
 * Workspace packages resolve to their TypeScript source in tests (the `@scrub/source` export
 * condition, which Node and bundlers ignore), so a change in one package is seen by the next
 * without building it: only the binaries the e2e tests run need a build. Setting conditions
 * replaces Vite's defaults, so these are Vite's defaults with ours in front, less `module` on the
 * server side: with it, Node loads the bundler-only ESM builds some packages publish (the AWS
 * SDK's `dist-es`, whose imports have no file extensions) and fails.
 */
export default defineProject({
  resolve: { conditions: ['@scrub/source', 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: ['@scrub/source', 'node', 'development|production'] } },
});
