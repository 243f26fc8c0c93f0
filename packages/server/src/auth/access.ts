import type { RoleName, RouteAuth } from '@scrub/contract';
import type { Principal } from './principal.js';

interface Access {
  /** Roles admitted. */
  roles: readonly RoleName[];
  /** Whether an API key opens it: keys are for scripts checking numbers, never for managing accounts. */
  apiKey: boolean;
  /** Whether an admin acting as a user may call it: acting as someone is being them, nothing more. */
  actAs: boolean;
}

const everyone: readonly RoleName[] = ['User', 'Agency', 'Admin', 'Super Admin'];

/**
 * Who may call what: the server's one access table, consulted on every authenticated route (the
 * route's `auth` level in the contract picks the row). docs/auth.md shows it; the role sweep test
 * (routes/role-sweep.test.ts) walks every contract route against it.
 */
export const ACCESS: Readonly<Record<Exclude<RouteAuth, 'none'>, Access>> = {
  user: { roles: everyone, apiKey: true, actAs: true },
  admin: { roles: ['Admin', 'Super Admin'], apiKey: false, actAs: false },
  super_admin: { roles: ['Super Admin'], apiKey: false, actAs: false },
};

export function permits(auth: RouteAuth, principal: Principal): boolean {
  if (auth === 'none') return true;
  const access = ACCESS[auth];
  if (principal.via === 'api_key' && !access.apiKey) return false;
  if (principal.via === 'act_as' && !access.actAs) return false;
  return access.roles.includes(principal.role);
}

/** Only a Super Admin makes, removes or acts on admins. */
export const mayManageRole = (actor: RoleName, target: RoleName) =>
  actor === 'Super Admin' || (target !== 'Admin' && target !== 'Super Admin');
