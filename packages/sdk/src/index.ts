import { openPath } from './core/path-source.js';
import { readPathsWith } from './core/upload.js';

// Node's entry: the browser entry's API, and uploads from a file path, which need node:fs.
readPathsWith(openPath);

export * from './browser.js';
