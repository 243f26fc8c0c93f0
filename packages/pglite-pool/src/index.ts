export { openEmbeddedDatabase } from './embedded-database.js';
export { PGlitePool } from './pglite-pool.js';
