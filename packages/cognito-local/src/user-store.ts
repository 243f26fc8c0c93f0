import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { CognitoError, cognitoMessages as m } from './errors.js';
import { hashPassword } from './passwords.js';
import type { PoolContext } from './pool-context.js';
import type { IdentityUsersTable } from './schema.js';
import { createVerifier } from './srp.js';

export type UserRow = Selectable<IdentityUsersTable>;

/** A user as the admin API shows it. */
export interface PoolUser {
  /** The immutable id: the `sub` claim, and the username Cognito's protocol uses. */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  attributes: Record<string, string>;
  status: 'UNCONFIRMED' | 'CONFIRMED';
  enabled: boolean;
  groups: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface PoolGroup {
  name: string;
  description: string;
  precedence: number | null;
}

export interface NewUser {
  email: string;
  attributes: Record<string, string>;
  password: string;
  status: 'UNCONFIRMED' | 'CONFIRMED';
  emailVerified: boolean;
}

/** Standard OpenID Connect attributes a user may set at sign-up; `email` is the username itself. */
export const WRITABLE_ATTRIBUTES = new Set([
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
  'address',
]);

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const emailKey = (email: string) => email.trim().toLowerCase();

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/** The pool's users, their passwords and groups, in SQL; the rules of who may do what are the callers'. */
export class UserStore {
  readonly #pool: PoolContext;

  constructor(pool: PoolContext) {
    this.#pool = pool;
  }

  /** By e-mail address (any case) or by sub: the client sends either, depending on the step. */
  async find(username: string): Promise<UserRow | undefined> {
    const trimmed = username.trim();
    return this.#pool.db
      .selectFrom('identity_users')
      .selectAll()
      .where((eb) =>
        UUID.test(trimmed)
          ? eb.or([eb('sub', '=', trimmed.toLowerCase()), eb('email_key', '=', emailKey(trimmed))])
          : eb('email_key', '=', emailKey(trimmed)),
      )
      .executeTakeFirst();
  }

  async require(username: string): Promise<UserRow> {
    const user = await this.find(username);
    if (!user) throw new CognitoError('UserNotFoundException', m.userNotFound);
    return user;
  }

  async insert(input: NewUser): Promise<UserRow> {
    const sub = randomUUID();
    const { salt, verifier } = createVerifier(this.#pool.poolName, sub, input.password);
    try {
      return await this.#pool.db
        .insertInto('identity_users')
        .values({
          sub,
          email: input.email,
          email_key: emailKey(input.email),
          email_verified: input.emailVerified,
          status: input.status,
          attributes: JSON.stringify(input.attributes),
          password_hash: await hashPassword(input.password),
          srp_salt: salt,
          srp_verifier: verifier,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new CognitoError('UsernameExistsException', m.usernameExists);
      throw error;
    }
  }

  async update(
    sub: string,
    changes: {
      status?: 'CONFIRMED';
      emailVerified?: boolean;
      enabled?: boolean;
      attributes?: Record<string, string>;
      email?: string;
    },
  ): Promise<void> {
    const { email, emailVerified, attributes, ...rest } = changes;
    try {
      await this.#pool.db
        .updateTable('identity_users')
        .set({
          ...rest,
          ...(emailVerified === undefined ? {} : { email_verified: emailVerified }),
          ...(attributes === undefined ? {} : { attributes: JSON.stringify(attributes) }),
          ...(email === undefined ? {} : { email: email.trim(), email_key: emailKey(email) }),
          updated_at: this.#pool.now(),
        })
        .where('sub', '=', sub)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new CognitoError('UsernameExistsException', m.usernameExists);
      throw error;
    }
  }

  /** The password and the SRP verifier change together: either sign-in flow works with the new one. */
  async setPassword(sub: string, password: string, extra: { status?: 'CONFIRMED' } = {}): Promise<void> {
    const { salt, verifier } = createVerifier(this.#pool.poolName, sub, password);
    await this.#pool.db
      .updateTable('identity_users')
      .set({
        password_hash: await hashPassword(password),
        srp_salt: salt,
        srp_verifier: verifier,
        updated_at: this.#pool.now(),
        ...extra,
      })
      .where('sub', '=', sub)
      .execute();
  }

  /** Deletes the user with their codes, sessions and group memberships. */
  async delete(sub: string): Promise<void> {
    await this.#pool.db.deleteFrom('identity_users').where('sub', '=', sub).execute();
  }

  /**
   * Every sign-in of the user ends (but `keep`, a sign-in's `origin_jti`): their refresh tokens and
   * the tokens issued from them stop working.
   */
  async revokeSessions(sub: string, keep?: string): Promise<void> {
    let revoke = this.#pool.db
      .updateTable('identity_sessions')
      .set({ revoked_at: this.#pool.now() })
      .where('user_sub', '=', sub)
      .where('revoked_at', 'is', null);
    if (keep !== undefined) revoke = revoke.where('origin_jti', '!=', keep);
    await revoke.execute();
  }

  /** Users by e-mail address, `emailPrefix` narrowing; `after` is the last e-mail key of the previous page. */
  async list(
    options: { limit?: number; after?: string; emailPrefix?: string } = {},
  ): Promise<{ users: PoolUser[]; next: string | null }> {
    const limit = Math.min(Math.max(options.limit ?? 60, 1), 1000);
    let query = this.#pool.db
      .selectFrom('identity_users')
      .selectAll()
      .orderBy('email_key')
      .limit(limit + 1);
    if (options.after) query = query.where('email_key', '>', options.after);
    if (options.emailPrefix) {
      const prefix = emailKey(options.emailPrefix).replace(/[\\%_]/g, '\\$&');
      query = query.where('email_key', 'like', `${prefix}%`);
    }
    const rows = await query.execute();
    const page = rows.slice(0, limit);
    const groups = await this.groupsOf(page.map((r) => r.sub));
    return {
      users: page.map((row) => toPoolUser(row, groups.get(row.sub) ?? [])),
      next: rows.length > limit ? (page.at(-1)?.email_key ?? null) : null,
    };
  }

  async present(user: UserRow): Promise<PoolUser> {
    return toPoolUser(user, (await this.groupsOf([user.sub])).get(user.sub) ?? []);
  }

  // ---- groups ----

  async listGroups(): Promise<PoolGroup[]> {
    return this.#pool.db
      .selectFrom('identity_groups')
      .select(['name', 'description', 'precedence'])
      .orderBy('precedence')
      .orderBy('name')
      .execute();
  }

  async createGroup(group: { name: string; description?: string; precedence?: number }): Promise<PoolGroup> {
    try {
      return await this.#pool.db
        .insertInto('identity_groups')
        .values({
          name: group.name,
          description: group.description ?? '',
          precedence: group.precedence ?? null,
        })
        .returning(['name', 'description', 'precedence'])
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new CognitoError('GroupExistsException', 'A group with the name already exists.');
      throw error;
    }
  }

  async requireGroup(name: string): Promise<void> {
    const group = await this.#pool.db
      .selectFrom('identity_groups')
      .select('name')
      .where('name', '=', name)
      .executeTakeFirst();
    if (!group) throw new CognitoError('ResourceNotFoundException', `Group ${name} not found.`);
  }

  async addToGroup(sub: string, groupName: string): Promise<void> {
    await this.#pool.db
      .insertInto('identity_user_groups')
      .values({ user_sub: sub, group_name: groupName })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async removeFromGroup(sub: string, groupName: string): Promise<void> {
    await this.#pool.db
      .deleteFrom('identity_user_groups')
      .where('user_sub', '=', sub)
      .where('group_name', '=', groupName)
      .execute();
  }

  /** Each user's groups, in precedence order (the order of `cognito:groups`). */
  async groupsOf(subs: string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (subs.length === 0) return result;
    const rows = await this.#pool.db
      .selectFrom('identity_user_groups')
      .innerJoin('identity_groups', 'identity_groups.name', 'identity_user_groups.group_name')
      .select(['identity_user_groups.user_sub', 'identity_groups.name'])
      .where('identity_user_groups.user_sub', 'in', subs)
      .orderBy('identity_groups.precedence')
      .orderBy('identity_groups.name')
      .execute();
    for (const row of rows) result.set(row.user_sub, [...(result.get(row.user_sub) ?? []), row.name]);
    return result;
  }
}

function toPoolUser(user: UserRow, groups: string[]): PoolUser {
  return {
    sub: user.sub,
    email: user.email,
    emailVerified: user.email_verified,
    name: user.attributes.name ?? null,
    attributes: user.attributes,
    status: user.status,
    enabled: user.enabled,
    groups,
    createdAt: user.created_at,
    updatedAt: user.updated_at,
  };
}
