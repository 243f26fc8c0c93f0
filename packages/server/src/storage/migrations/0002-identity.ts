import { createIdentityTables, dropIdentityTables } from '@scrub/cognito-local';
import type { Kysely } from 'kysely';

/**
 * The built-in user pool: its tables belong to @scrub/cognito-local, which keeps their definition
 * (`schema.ts` there) unchanged; the service's own groups are seeded here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createIdentityTables(db);
  await db
    .insertInto('identity_groups' as never)
    .values([
      { name: 'Super Admin', precedence: 0, description: 'Every admin power, including over admins' },
      { name: 'Admin', precedence: 1, description: 'Manages accounts and acts on behalf of users' },
      { name: 'Agency', precedence: 2, description: 'Manages the accounts of its own clients' },
      { name: 'User', precedence: 3, description: 'A customer' },
    ] as never)
    .execute();
}

export const down = dropIdentityTables;
