export { openEmbeddedDatabase } from './embedded-database.js';
export { type PGliteConnection, PGlitePool } from './pglite-pool.js';
export { PGliteThread, type PGliteThreadOptions } from './pglite-thread.js';
