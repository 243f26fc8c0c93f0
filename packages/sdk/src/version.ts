declare const __SDK_VERSION__: string;

/** Set from package.json at build time (tsup and vitest `define`), so a release bump is never missed. */
export const VERSION: string = __SDK_VERSION__;
