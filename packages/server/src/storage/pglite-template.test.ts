import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { PGLITE_TEMPLATE_ENV, pgliteTemplate } from './pglite-template.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the test run’s empty PGlite cluster', () => {
  it('is loaded into in-memory databases and new data directories, never over an existing cluster', async () => {
    const template = join(tempDir('scrub-template-'), 'empty-cluster.tar');
    writeFileSync(template, 'a tar file');
    vi.stubEnv(PGLITE_TEMPLATE_ENV, template);
    expect(await pgliteTemplate(null)?.text()).toBe('a tar file');
    const fresh = tempDir('scrub-data-');
    expect(await pgliteTemplate(fresh)?.text()).toBe('a tar file');
    writeFileSync(join(fresh, 'PG_VERSION'), '17\n');
    expect(pgliteTemplate(fresh)).toBeUndefined();
  });

  it('is not used when the setting is absent or names no file: PGlite runs initdb as it always did', () => {
    vi.stubEnv(PGLITE_TEMPLATE_ENV, undefined);
    expect(pgliteTemplate(null)).toBeUndefined();
    vi.stubEnv(PGLITE_TEMPLATE_ENV, join(tempDir('scrub-template-'), 'missing.tar'));
    expect(pgliteTemplate(null)).toBeUndefined();
  });
});
