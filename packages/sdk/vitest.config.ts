import { defineProject } from 'vitest/config';
import packageJson from './package.json' with { type: 'json' };

export default defineProject({
  define: { __SDK_VERSION__: JSON.stringify(packageJson.version) },
  test: { name: 'sdk' },
});
