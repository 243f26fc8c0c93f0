import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (projects by name, then longest or largest file first), with the dashboard's
 * browser tests moved to the front: they are the longest files, and started first they run beside
 * everything else instead of holding up the end of the run.
 */
class BrowserTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = (file: TestSpecification) => file.project.name === 'dashboard';
    return [...sorted.filter(browser), ...sorted.filter((file) => !browser(file))];
  }
}

export default defineConfig({
  // The global setup runs outside the projects, without their `@scrub/source` condition: it reads
  // the server's migrations, which sit on @scrub/pglite-pool, from source here.
  resolve: {
    alias: {
      '@scrub/pglite-pool': fileURLToPath(new URL('packages/pglite-pool/src/index.ts', import.meta.url)),
    },
  },
  test: {
    // The dashboard has a second project: its fast jsdom tests, apart from its Chromium ones.
    projects: ['packages/*', 'packages/dashboard/vitest.components.config.ts', 'examples/*', 'tests/*'],
    // initdb once per run, not once per database (docs/architecture.md, "Tests without a build").
    globalSetup: ['packages/server/test/pglite-template-setup.ts'],
    sequence: { sequencer: BrowserTestsFirst },
  },
});
