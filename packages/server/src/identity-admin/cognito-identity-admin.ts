import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  type AdminGetUserCommandOutput,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  CognitoIdentityProviderServiceException,
} from '@aws-sdk/client-cognito-identity-provider';
import type { RoleName } from '@scrub/contract';
import {
  type CreatedIdentity,
  type IdentityAdmin,
  identityFailure,
  type NewIdentity,
  ROLE_GROUPS,
} from './identity-admin.js';

export interface CognitoIdentityAdminOptions {
  region: string;
  userPoolId: string;
  /** A client of one's own (tests); by default one on the AWS SDK's credential chain. */
  client?: CognitoIdentityProviderClient;
}

/**
 * An Amazon Cognito user pool's Admin* API. AWS credentials come from the SDK's usual chain
 * (environment, profile, instance role); the pool must use e-mail addresses as usernames
 * (docs/identity.md), so Cognito's username is the `sub` once created.
 */
export class CognitoIdentityAdmin implements IdentityAdmin {
  readonly #client: CognitoIdentityProviderClient;
  readonly #pool: string;

  constructor(options: CognitoIdentityAdminOptions) {
    this.#client = options.client ?? new CognitoIdentityProviderClient({ region: options.region });
    this.#pool = options.userPoolId;
  }

  createUser(input: NewIdentity): Promise<CreatedIdentity> {
    return this.#run(async () => {
      const created = await this.#client.send(
        new AdminCreateUserCommand({
          UserPoolId: this.#pool,
          Username: input.email,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: input.email },
            { Name: 'email_verified', Value: 'true' },
            ...(input.name ? [{ Name: 'name', Value: input.name }] : []),
          ],
        }),
      );
      const sub = created.User?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? created.User?.Username;
      if (!sub) throw new Error('Cognito created a user without a sub');
      await this.setUserPassword(sub, input.password);
      await this.setRole(sub, input.role);
      return { sub, email: input.email };
    });
  }

  updateUserAttributes(sub: string, attributes: { email?: string; name?: string }): Promise<void> {
    const list = [
      ...(attributes.email !== undefined
        ? [
            { Name: 'email', Value: attributes.email },
            { Name: 'email_verified', Value: 'true' },
          ]
        : []),
      ...(attributes.name !== undefined ? [{ Name: 'name', Value: attributes.name }] : []),
    ];
    return this.#run(async () => {
      if (list.length === 0) return;
      await this.#client.send(
        new AdminUpdateUserAttributesCommand({ UserPoolId: this.#pool, Username: sub, UserAttributes: list }),
      );
    });
  }

  setUserPassword(sub: string, password: string): Promise<void> {
    return this.#run(async () => {
      await this.#client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: this.#pool,
          Username: sub,
          Password: password,
          Permanent: true,
        }),
      );
      // Cognito keeps refresh tokens alive across a password set; the built-in pool does not.
      await this.#client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.#pool, Username: sub }));
    });
  }

  setRole(sub: string, role: RoleName): Promise<void> {
    return this.#run(async () => {
      const listed = await this.#client.send(
        new AdminListGroupsForUserCommand({ UserPoolId: this.#pool, Username: sub }),
      );
      const current = (listed.Groups ?? []).map((g) => g.GroupName ?? '');
      for (const group of current) {
        if (group !== role && ROLE_GROUPS.includes(group as RoleName)) {
          await this.#client.send(
            new AdminRemoveUserFromGroupCommand({ UserPoolId: this.#pool, Username: sub, GroupName: group }),
          );
        }
      }
      if (role !== 'User' && !current.includes(role)) {
        await this.#client.send(
          new AdminAddUserToGroupCommand({ UserPoolId: this.#pool, Username: sub, GroupName: role }),
        );
      }
    });
  }

  disableUser(sub: string): Promise<void> {
    return this.#run(async () => {
      await this.#client.send(new AdminDisableUserCommand({ UserPoolId: this.#pool, Username: sub }));
    });
  }

  enableUser(sub: string): Promise<void> {
    return this.#run(async () => {
      await this.#client.send(new AdminEnableUserCommand({ UserPoolId: this.#pool, Username: sub }));
    });
  }

  deleteUser(sub: string): Promise<void> {
    return this.#run(async () => {
      try {
        await this.#client.send(new AdminDeleteUserCommand({ UserPoolId: this.#pool, Username: sub }));
      } catch (error) {
        if ((error as { name?: string }).name !== 'UserNotFoundException') throw error;
      }
    });
  }

  globalSignOut(sub: string): Promise<void> {
    return this.#run(async () => {
      await this.#client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.#pool, Username: sub }));
    });
  }

  async isEnabled(sub: string): Promise<boolean | null> {
    const user = await this.#getUser(sub);
    return user ? (user.Enabled ?? null) : null;
  }

  async usesAuthenticator(sub: string): Promise<boolean | null> {
    const user = await this.#getUser(sub);
    return user ? (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA') : null;
  }

  /** AdminGetUser; null for a user the pool does not know. */
  async #getUser(sub: string): Promise<AdminGetUserCommandOutput | null> {
    try {
      return await this.#client.send(new AdminGetUserCommand({ UserPoolId: this.#pool, Username: sub }));
    } catch (error) {
      if (
        error instanceof CognitoIdentityProviderServiceException &&
        error.name === 'UserNotFoundException'
      ) {
        return null;
      }
      throw error;
    }
  }

  async #run<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof CognitoIdentityProviderServiceException) {
        throw identityFailure(error.name, error.message);
      }
      throw error;
    }
  }
}
