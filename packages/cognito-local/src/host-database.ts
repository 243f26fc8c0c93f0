import type { Kysely } from 'kysely';

/**
 * The database the host gives the package: a Kysely instance on any PostgreSQL (or PGlite) that
 * holds the package's tables (`schema.ts`), whatever other tables the host keeps beside them.
 * Kysely's types cannot say "at least these tables", so the host's schema is left open here and
 * the package reads the database through its own table types.
 */
// biome-ignore lint/suspicious/noExplicitAny: the host's own tables are no concern of the package's.
export type HostDatabase = Kysely<any>;
