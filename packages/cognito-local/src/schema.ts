import { type ColumnType, type Generated, type Kysely, sql } from 'kysely';

/** The pool's tables, as Kysely sees them (created by `createIdentityTables` below). */
export interface IdentityUsersTable {
  sub: string;
  email: string;
  /** Lower-cased e-mail: sign-in names are case-insensitive, as in a new Cognito pool. */
  email_key: string;
  email_verified: Generated<boolean>;
  status: 'UNCONFIRMED' | 'CONFIRMED';
  enabled: Generated<boolean>;
  attributes: ColumnType<Record<string, string>, string | undefined, string>;
  password_hash: string;
  srp_salt: string;
  srp_verifier: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface IdentityGroupsTable {
  name: string;
  description: Generated<string>;
  precedence: number | null;
  created_at: Generated<Date>;
}

export interface IdentityUserGroupsTable {
  user_sub: string;
  group_name: string;
  created_at: Generated<Date>;
}

export interface IdentityCodesTable {
  user_sub: string;
  purpose: 'confirm_sign_up' | 'reset_password';
  code_hash: string;
  failed_attempts: Generated<number>;
  expires_at: Date;
  created_at: Generated<Date>;
}

export interface IdentitySessionsTable {
  origin_jti: string;
  user_sub: string;
  client_id: string;
  refresh_token_hash: string;
  auth_time: Date;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

export interface IdentitySrpChallengesTable {
  id: string;
  session_hash: string;
  user_sub: string | null;
  srp_user_id: string;
  throttle_key: string;
  client_id: string;
  big_a: string;
  big_b: string;
  small_b: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface IdentityThrottlesTable {
  key: string;
  failures: Generated<number>;
  window_started_at: Date;
  locked_until: Date | null;
}

/** A user's authenticator app (TOTP, RFC 6238): one per user, as in Cognito. */
export interface IdentitySoftwareTokensTable {
  user_sub: string;
  /** The verified secret (base32), null until VerifySoftwareToken accepts a code for `pending_secret`. */
  secret: string | null;
  /** The secret AssociateSoftwareToken handed out last, not yet verified. */
  pending_secret: string | null;
  friendly_name: string | null;
  /** Whether sign-in asks for a code (SetUserMFAPreference, or enrolment during sign-in). */
  enabled: Generated<boolean>;
  /** The last 30-second step whose code was accepted: a code works once. */
  last_used_step: ColumnType<string | null, number | null | undefined, number | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Single-use codes that stand in for an authenticator code (SHA-256 of each; shown once). */
export interface IdentityRecoveryCodesTable {
  user_sub: string;
  code_hash: string;
  used_at: Date | null;
}

/** A sign-in waiting for its second factor: SOFTWARE_TOKEN_MFA, or MFA_SETUP (enrol first). */
export interface IdentityMfaChallengesTable {
  session_hash: string;
  user_sub: string;
  client_id: string;
  kind: 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP';
  failed_attempts: Generated<number>;
  expires_at: Date;
  used_at: Date | null;
}

export interface IdentityTables {
  identity_users: IdentityUsersTable;
  identity_groups: IdentityGroupsTable;
  identity_user_groups: IdentityUserGroupsTable;
  identity_codes: IdentityCodesTable;
  identity_sessions: IdentitySessionsTable;
  identity_srp_challenges: IdentitySrpChallengesTable;
  identity_throttles: IdentityThrottlesTable;
  identity_software_tokens: IdentitySoftwareTokensTable;
  identity_recovery_codes: IdentityRecoveryCodesTable;
  identity_mfa_challenges: IdentityMfaChallengesTable;
}

/**
 * The pool's state: users, groups, one-time codes, sign-in sessions, SRP challenges, throttles.
 *
 * The Scrub server creates the same tables in its own migrations 0002-identity and 0027-mfa (kept
 * there unchanged, as released migrations are): a change of schema here needs a new migration there.
 */
export async function createIdentityTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_users')
    // The immutable username, as in a Cognito pool that signs in with e-mail: a UUID, also the `sub`.
    .addColumn('sub', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('UNCONFIRMED', 'CONFIRMED')`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('attributes', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('srp_salt', 'text', (c) => c.notNull())
    .addColumn('srp_verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('identity_groups')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('precedence', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('identity_user_groups')
    .addColumn('user_sub', 'text', (c) => c.notNull().references('identity_users.sub').onDelete('cascade'))
    .addColumn('group_name', 'text', (c) =>
      c.notNull().references('identity_groups.name').onDelete('cascade').onUpdate('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('identity_user_groups_pk', ['user_sub', 'group_name'])
    .execute();

  await db.schema
    .createTable('identity_codes')
    .addColumn('user_sub', 'text', (c) => c.notNull().references('identity_users.sub').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) =>
      c.notNull().check(sql`purpose in ('confirm_sign_up', 'reset_password')`),
    )
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('identity_codes_pk', ['user_sub', 'purpose'])
    .execute();

  await db.schema
    .createTable('identity_sessions')
    // Every token of one sign-in carries this as `origin_jti`; revoking the row revokes them all.
    .addColumn('origin_jti', 'text', (c) => c.primaryKey())
    .addColumn('user_sub', 'text', (c) => c.notNull().references('identity_users.sub').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('refresh_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('auth_time', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('identity_sessions_user').on('identity_sessions').column('user_sub').execute();

  await db.schema
    .createTable('identity_srp_challenges')
    // SHA-256 of the SECRET_BLOCK handed to the client; the block itself is never stored.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    // Null for the simulated challenge answered to an unknown user name.
    .addColumn('user_sub', 'text', (c) => c.references('identity_users.sub').onDelete('cascade'))
    .addColumn('srp_user_id', 'text', (c) => c.notNull())
    .addColumn('throttle_key', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('big_a', 'text', (c) => c.notNull())
    .addColumn('big_b', 'text', (c) => c.notNull())
    .addColumn('small_b', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('identity_srp_challenges_expiry')
    .on('identity_srp_challenges')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('identity_throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz')
    .execute();

  await createMfaTables(db);
}

/** The second factor's tables (the server's migration 0027-mfa creates the same). */
async function createMfaTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identity_software_tokens')
    .addColumn('user_sub', 'text', (c) => c.primaryKey().references('identity_users.sub').onDelete('cascade'))
    .addColumn('secret', 'text')
    .addColumn('pending_secret', 'text')
    .addColumn('friendly_name', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('identity_recovery_codes')
    .addColumn('user_sub', 'text', (c) => c.notNull().references('identity_users.sub').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addPrimaryKeyConstraint('identity_recovery_codes_pk', ['user_sub', 'code_hash'])
    .execute();

  await db.schema
    .createTable('identity_mfa_challenges')
    .addColumn('session_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_sub', 'text', (c) => c.notNull().references('identity_users.sub').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('SOFTWARE_TOKEN_MFA', 'MFA_SETUP')`))
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('identity_mfa_challenges_expiry')
    .on('identity_mfa_challenges')
    .column('expires_at')
    .execute();
}

export async function dropIdentityTables(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'identity_mfa_challenges',
    'identity_recovery_codes',
    'identity_software_tokens',
    'identity_throttles',
    'identity_srp_challenges',
    'identity_sessions',
    'identity_codes',
    'identity_user_groups',
    'identity_groups',
    'identity_users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
