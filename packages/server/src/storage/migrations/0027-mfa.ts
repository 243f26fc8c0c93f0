import { type Kysely, sql } from 'kysely';

/**
 * The built-in user pool's second factor (issue 28): each user's authenticator app (TOTP), their
 * single-use recovery codes (hashed), and sign-ins waiting for a code. The same tables as
 * `@scrub/cognito-local`'s `createIdentityTables`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['identity_mfa_challenges', 'identity_recovery_codes', 'identity_software_tokens']) {
    await db.schema.dropTable(table).execute();
  }
}
