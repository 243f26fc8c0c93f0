export { openEmbeddedDatabase } from './embedded-database.js';
export { type PGliteConnection, PGlitePool } from './pglite-pool.js';
export { PGLITE_PROCESS_FLAGS, PGliteProcess } from './pglite-process.js';
export { PGliteThread, type PGliteThreadOptions } from './pglite-thread.js';
