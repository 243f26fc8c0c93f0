import packageJson from '../package.json' with { type: 'json' };

/** Read from package.json, so a release bump is never missed and the source needs no build-time define. */
export const VERSION: string = packageJson.version;
