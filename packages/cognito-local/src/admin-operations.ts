import { CognitoError } from './errors.js';
import { enforcePasswordPolicy } from './passwords.js';
import type { PoolContext } from './pool-context.js';
import type { SoftwareTokens } from './software-tokens.js';
import type { Throttles } from './throttles.js';
import { EMAIL, type PoolGroup, type PoolUser, type UserStore, WRITABLE_ATTRIBUTES } from './user-store.js';

/**
 * What an administrator does to users and groups, named after Cognito's Admin* operations. They
 * are a TypeScript API only: the pool's HTTP endpoint answers none of them, as Cognito's need AWS
 * credentials. Users are named by sub or e-mail address (any case).
 */
export class AdminOperations {
  readonly #pool: PoolContext;
  readonly #users: UserStore;
  readonly #throttles: Throttles;
  readonly #softwareTokens: SoftwareTokens;

  constructor(pool: PoolContext, users: UserStore, throttles: Throttles, softwareTokens: SoftwareTokens) {
    this.#pool = pool;
    this.#users = users;
    this.#throttles = throttles;
    this.#softwareTokens = softwareTokens;
  }

  /** Creates a confirmed user with a permanent password (an admin's "create account"). */
  async adminCreateUser(input: {
    email: string;
    password: string;
    name?: string;
    groups?: string[];
  }): Promise<PoolUser> {
    const email = input.email.trim();
    if (!EMAIL.test(email))
      throw new CognitoError('InvalidParameterException', 'Username should be an email.');
    enforcePasswordPolicy(input.password, this.#pool.tuning.passwordPolicy);
    const user = await this.#users.insert({
      email,
      attributes: input.name ? { name: input.name } : {},
      password: input.password,
      status: 'CONFIRMED',
      emailVerified: true,
    });
    for (const group of input.groups ?? []) await this.adminAddUserToGroup(user.sub, group);
    return this.#users.present(user);
  }

  /** Null when there is no such user. */
  async adminGetUser(username: string): Promise<PoolUser | null> {
    const user = await this.#users.find(username);
    return user ? this.#users.present(user) : null;
  }

  /** AdminGetUser's `UserMFASettingList`: `['SOFTWARE_TOKEN_MFA']` when sign-in asks for a code; null: no such user. */
  async adminGetUserMfaSettings(username: string): Promise<string[] | null> {
    const user = await this.#users.find(username);
    if (!user) return null;
    return (await this.#softwareTokens.state(user.sub)).enabled ? ['SOFTWARE_TOKEN_MFA'] : [];
  }

  /**
   * A lost authenticator: forgets it and its recovery codes, so the next sign-in asks for the
   * password only (or enrolment, where the role requires it). Cognito: AdminSetUserMFAPreference
   * with `SoftwareTokenMfaSettings: { Enabled: false }`.
   */
  async adminResetSoftwareToken(sub: string): Promise<void> {
    const user = await this.#users.require(sub);
    await this.#softwareTokens.remove(user.sub);
    this.#pool.log({ sub: user.sub }, 'authenticator reset by an admin');
  }

  /** Users by e-mail address, `emailPrefix` narrowing; `after` is the last e-mail key of the previous page. */
  listUsers(
    options: { limit?: number; after?: string; emailPrefix?: string } = {},
  ): Promise<{ users: PoolUser[]; next: string | null }> {
    return this.#users.list(options);
  }

  /** Changes the e-mail address (the sign-in name) and other attributes; a new address counts as verified. */
  async adminUpdateUserAttributes(sub: string, attributes: Record<string, string>): Promise<PoolUser> {
    const user = await this.#users.require(sub);
    const { email, ...rest } = attributes;
    const updated = { ...user.attributes };
    for (const [name, value] of Object.entries(rest)) {
      if (!WRITABLE_ATTRIBUTES.has(name)) {
        throw new CognitoError('InvalidParameterException', `Attribute ${name} cannot be written.`);
      }
      updated[name] = value;
    }
    if (email !== undefined && !EMAIL.test(email.trim())) {
      throw new CognitoError('InvalidParameterException', 'email should be an email address.');
    }
    await this.#users.update(user.sub, {
      attributes: updated,
      ...(email !== undefined ? { email, emailVerified: true } : {}),
    });
    return this.#users.present(await this.#users.require(user.sub));
  }

  /** Sets a permanent password, confirms the user, and signs them out everywhere. */
  async adminSetUserPassword(sub: string, password: string): Promise<void> {
    const user = await this.#users.require(sub);
    enforcePasswordPolicy(password, this.#pool.tuning.passwordPolicy);
    await this.#users.setPassword(user.sub, password, { status: 'CONFIRMED' });
    await this.#users.revokeSessions(user.sub);
    await this.#throttles.clearAccount(user.sub);
  }

  /** A disabled user cannot sign in or refresh, and every token they hold stops working. */
  async adminDisableUser(sub: string): Promise<void> {
    const user = await this.#users.require(sub);
    await this.#users.update(user.sub, { enabled: false });
    await this.#users.revokeSessions(user.sub);
  }

  async adminEnableUser(sub: string): Promise<void> {
    const user = await this.#users.require(sub);
    await this.#users.update(user.sub, { enabled: true });
  }

  /** Deletes the user with their codes, sessions and group memberships. */
  async adminDeleteUser(sub: string): Promise<void> {
    const user = await this.#users.require(sub);
    await this.#users.delete(user.sub);
  }

  async adminUserGlobalSignOut(sub: string): Promise<void> {
    await this.#users.revokeSessions((await this.#users.require(sub)).sub);
  }

  listGroups(): Promise<PoolGroup[]> {
    return this.#users.listGroups();
  }

  createGroup(group: { name: string; description?: string; precedence?: number }): Promise<PoolGroup> {
    return this.#users.createGroup(group);
  }

  /** Group membership shows in the next tokens' `cognito:groups`. */
  async adminAddUserToGroup(sub: string, groupName: string): Promise<void> {
    const user = await this.#users.require(sub);
    await this.#users.requireGroup(groupName);
    await this.#users.addToGroup(user.sub, groupName);
  }

  async adminRemoveUserFromGroup(sub: string, groupName: string): Promise<void> {
    const user = await this.#users.require(sub);
    await this.#users.requireGroup(groupName);
    await this.#users.removeFromGroup(user.sub, groupName);
  }

  async adminListGroupsForUser(sub: string): Promise<string[]> {
    const user = await this.#users.require(sub);
    return (await this.#users.groupsOf([user.sub])).get(user.sub) ?? [];
  }
}
