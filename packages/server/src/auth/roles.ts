import type { RoleName } from '@scrub/contract';

/** Lowest to highest: a person in several groups gets the highest role among them. */
const ranked: readonly RoleName[] = ['User', 'Agency', 'Admin', 'Super Admin'];

/** Group names as written in a user pool: `Super Admin`, `super-admin`, `SuperAdmins` and `super_admin` are one role. */
const byGroupName = new Map<string, RoleName>([
  ['user', 'User'],
  ['agency', 'Agency'],
  ['admin', 'Admin'],
  ['superadmin', 'Super Admin'],
]);

const normalise = (group: string) =>
  group
    .toLowerCase()
    .replace(/[\s_-]+/g, '')
    .replace(/s$/, '');

export function highestRole(roles: Iterable<RoleName>): RoleName {
  let best = 0;
  for (const role of roles) best = Math.max(best, ranked.indexOf(role));
  return ranked[best] ?? 'User';
}

/** The role an ID token's `cognito:groups` give; groups that name no role are ignored. */
export function roleFromGroups(groups: readonly string[]): RoleName {
  const roles: RoleName[] = [];
  for (const group of groups) {
    const role = byGroupName.get(normalise(group));
    if (role) roles.push(role);
  }
  return highestRole(roles);
}

export const isAdminRole = (role: RoleName) => role === 'Admin' || role === 'Super Admin';

/** Groups give the role; a configured admin e-mail, once verified, gives Super Admin. */
export function roleOfIdentity(
  identity: { groups: readonly string[]; email: string; emailVerified: boolean },
  adminEmails: readonly string[],
): RoleName {
  const named = identity.emailVerified && adminEmails.includes(identity.email.toLowerCase());
  return highestRole([roleFromGroups(identity.groups), named ? 'Super Admin' : 'User']);
}
