import type { IdentityPool } from '@scrub/cognito-local';
import type { ServerConfig } from '../config/config.js';
import { BuiltInIdentityAdmin } from './built-in-identity-admin.js';
import type { IdentityAdmin } from './identity-admin.js';

/**
 * The configured Cognito pool's Admin* API, else the built-in pool's; null with neither. Made on
 * first use: the AWS SDK is loaded only for a Cognito pool, and only once an admin needs it.
 */
export function identityAdminFor(
  config: ServerConfig,
  pool: IdentityPool | null,
): () => Promise<IdentityAdmin | null> {
  let admin: Promise<IdentityAdmin | null> | undefined;
  const make = async (): Promise<IdentityAdmin | null> => {
    if (!config.cognito) return pool ? new BuiltInIdentityAdmin(pool) : null;
    const { CognitoIdentityAdmin } = await import('./cognito-identity-admin.js');
    return new CognitoIdentityAdmin({ region: config.cognito.region, userPoolId: config.cognito.userPoolId });
  };
  return () => {
    admin ??= make().catch((error: unknown) => {
      admin = undefined;
      throw error;
    });
    return admin;
  };
}
