import { CognitoError, type IdentityPool } from '@scrub/cognito-local';
import type { RoleName } from '@scrub/contract';
import {
  type CreatedIdentity,
  type IdentityAdmin,
  identityFailure,
  type NewIdentity,
  ROLE_GROUPS,
} from './identity-admin.js';

/** The built-in pool's `pool.admin`, its CognitoErrors turned into API answers. */
export class BuiltInIdentityAdmin implements IdentityAdmin {
  constructor(private readonly pool: IdentityPool) {}

  createUser(input: NewIdentity): Promise<CreatedIdentity> {
    return this.#run(async () => {
      const user = await this.pool.admin.adminCreateUser({
        email: input.email,
        password: input.password,
        ...(input.name ? { name: input.name } : {}),
        groups: [input.role],
      });
      return { sub: user.sub, email: user.email };
    });
  }

  updateUserAttributes(sub: string, attributes: { email?: string; name?: string }): Promise<void> {
    const defined = Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined));
    return this.#run(async () => {
      await this.pool.admin.adminUpdateUserAttributes(sub, defined as Record<string, string>);
    });
  }

  setUserPassword(sub: string, password: string): Promise<void> {
    return this.#run(() => this.pool.admin.adminSetUserPassword(sub, password));
  }

  setRole(sub: string, role: RoleName): Promise<void> {
    return this.#run(async () => {
      const current = await this.pool.admin.adminListGroupsForUser(sub);
      for (const group of current) {
        if (group !== role && ROLE_GROUPS.includes(group as RoleName)) {
          await this.pool.admin.adminRemoveUserFromGroup(sub, group);
        }
      }
      // User is the default role: no group says it as well as a User group.
      if (role !== 'User' && !current.includes(role)) await this.pool.admin.adminAddUserToGroup(sub, role);
    });
  }

  disableUser(sub: string): Promise<void> {
    return this.#run(() => this.pool.admin.adminDisableUser(sub));
  }

  enableUser(sub: string): Promise<void> {
    return this.#run(() => this.pool.admin.adminEnableUser(sub));
  }

  deleteUser(sub: string): Promise<void> {
    return this.#run(async () => {
      if (await this.pool.admin.adminGetUser(sub)) await this.pool.admin.adminDeleteUser(sub);
    });
  }

  globalSignOut(sub: string): Promise<void> {
    return this.#run(() => this.pool.admin.adminUserGlobalSignOut(sub));
  }

  isEnabled(sub: string): Promise<boolean | null> {
    return this.#run(async () => (await this.pool.admin.adminGetUser(sub))?.enabled ?? null);
  }

  usesAuthenticator(sub: string): Promise<boolean | null> {
    return this.#run(async () => {
      const settings = await this.pool.admin.adminGetUserMfaSettings(sub);
      return settings ? settings.includes('SOFTWARE_TOKEN_MFA') : null;
    });
  }

  async #run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof CognitoError) throw identityFailure(error.type, error.message);
      throw error;
    }
  }
}
