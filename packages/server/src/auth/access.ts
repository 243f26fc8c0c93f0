import type { RoleName, RouteAuth } from '@scrub/contract';
import type { Principal } from './principal.js';
import { isAdminRole } from './roles.js';

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
  // An Agency is admitted to manage its own client accounts: `clientScope` narrows what it sees.
  agency: { roles: ['Agency', 'Admin', 'Super Admin'], apiKey: false, actAs: false },
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

/** The accounts a caller manages on the admin routes: an Agency, its own clients only; null: every account. */
export type ClientScope = { agencyId: string } | null;

export const clientScope = (principal: Principal): ClientScope =>
  principal.role === 'Agency' ? { agencyId: principal.profileId } : null;

/** An admin acts as anyone but a Super Admin (checked where the token is issued); an Agency, as its clients. */
export const mayActAs = (
  actor: { id: string; role: RoleName },
  target: { agency_id: string | null },
): boolean => isAdminRole(actor.role) || (actor.role === 'Agency' && target.agency_id === actor.id);
