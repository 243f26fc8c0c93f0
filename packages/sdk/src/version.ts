import packageJson from '../package.json' with { type: 'json' };

/** Read from package.json (bundled into the build), so a release bump is never missed. */
export const VERSION: string = packageJson.version;
