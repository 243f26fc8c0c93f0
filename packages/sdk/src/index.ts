import { readPathRangesWith } from './core/part-upload.js';
import { openPath, openPathRanges } from './core/path-source.js';
import { readPathsWith } from './core/upload.js';

// Node's entry: the browser entry's API, and uploads from a file path, which need node:fs.
readPathsWith(openPath);
readPathRangesWith(openPathRanges);

export * from './browser.js';
