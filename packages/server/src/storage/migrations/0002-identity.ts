import { type Kysely, sql } from 'kysely';

/** The built-in user pool: users, groups, one-time codes, sign-in sessions, SRP challenges, throttles. */
export async function up(db: Kysely<unknown>): Promise<void> {
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
  await db
    .insertInto('identity_groups' as never)
    .values([
      { name: 'Super Admin', precedence: 0, description: 'Every admin power, including over admins' },
      { name: 'Admin', precedence: 1, description: 'Manages accounts and acts on behalf of users' },
      { name: 'Agency', precedence: 2, description: 'Manages the accounts of its own clients' },
      { name: 'User', precedence: 3, description: 'A customer' },
    ] as never)
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
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
