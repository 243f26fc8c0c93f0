import type { RoleName } from '@scrub/contract';
import { ApiError } from '../errors/api-error.js';

/** A user to create: confirmed, with a permanent password, in the role's group. */
export interface NewIdentity {
  email: string;
  password: string;
  name?: string;
  role: RoleName;
}

export interface CreatedIdentity {
  sub: string;
  email: string;
}

/**
 * Cognito's Admin* operations the admin area needs, behind one interface: the built-in pool
 * (`built-in-identity-admin.ts`) and an Amazon Cognito user pool (`cognito-identity-admin.ts`)
 * implement it, and one suite (`identity-admin.test.ts`) tests both. Users are named by `sub`.
 * Failures are ApiErrors: 400 for a password or address the provider refuses, 404 for no such
 * user, 409 for an address already taken.
 */
export interface IdentityAdmin {
  /** AdminCreateUser: confirmed, with a permanent password, in the role's group. */
  createUser(input: NewIdentity): Promise<CreatedIdentity>;
  /** AdminUpdateUserAttributes: a new e-mail counts as verified. */
  updateUserAttributes(sub: string, attributes: { email?: string; name?: string }): Promise<void>;
  /** AdminSetUserPassword (permanent): also ends the user's sessions. */
  setUserPassword(sub: string, password: string): Promise<void>;
  /** AdminAddUserToGroup / AdminRemoveUserFromGroup: the role's group only, the others left. */
  setRole(sub: string, role: RoleName): Promise<void>;
  /** AdminDisableUser: no sign-in, no refresh. */
  disableUser(sub: string): Promise<void>;
  /** AdminEnableUser. */
  enableUser(sub: string): Promise<void>;
  /** AdminDeleteUser: the user is gone from the pool; a user it does not know is no error. */
  deleteUser(sub: string): Promise<void>;
  /** AdminUserGlobalSignOut: every refresh token of the user dies. */
  globalSignOut(sub: string): Promise<void>;
  /**
   * AdminGetUser's `Enabled`: false for a user disabled in the pool itself (the Cognito console's
   * disable), null for a user the pool does not know.
   */
  isEnabled(sub: string): Promise<boolean | null>;
  /**
   * AdminGetUser's `UserMFASettingList` holds `SOFTWARE_TOKEN_MFA`: sign-in asks this user for an
   * authenticator code. Null for a user the pool does not know.
   */
  usesAuthenticator(sub: string): Promise<boolean | null>;
}

/** The pool groups that carry roles (docs/identity.md); one per role. */
export const ROLE_GROUPS: readonly RoleName[] = ['User', 'Agency', 'Admin', 'Super Admin'];

/** Cognito's exception names (both providers use them) as the API's answers. */
export function identityFailure(type: string, message: string): ApiError {
  switch (type) {
    case 'UserNotFoundException':
      return new ApiError('not_found', 'No such user in the identity provider.');
    case 'UsernameExistsException':
    case 'AliasExistsException':
      return new ApiError('conflict', 'An account with this e-mail address already exists.');
    case 'InvalidPasswordException':
    case 'InvalidParameterException':
      return new ApiError('validation_failed', message);
    default:
      return new ApiError('service_unavailable', `The identity provider refused the change: ${message}`);
  }
}
