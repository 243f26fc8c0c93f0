import type { ServerConfig } from '../config.js';
import type { IdentityPool } from '../identity/identity-pool.js';
import { BuiltInIdentityAdmin } from './built-in-identity-admin.js';
import { CognitoIdentityAdmin } from './cognito-identity-admin.js';
import type { IdentityAdmin } from './identity-admin.js';

/** The configured Cognito pool's Admin* API, else the built-in pool's; null with neither. */
export function identityAdminFor(config: ServerConfig, pool: IdentityPool | null): IdentityAdmin | null {
  if (config.cognito) {
    return new CognitoIdentityAdmin({ region: config.cognito.region, userPoolId: config.cognito.userPoolId });
  }
  return pool ? new BuiltInIdentityAdmin(pool) : null;
}
