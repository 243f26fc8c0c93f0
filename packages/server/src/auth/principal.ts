import type { RoleName } from '@scrub/contract';

/** How a caller proved who they are. */
export type CredentialKind = 'token' | 'api_key';

/** The caller of an authenticated route, as every handler receives it. */
export interface Principal {
  profileId: string;
  sub: string;
  email: string;
  role: RoleName;
  via: CredentialKind;
}
