import type { RoleName } from '@scrub/contract';

/** How a caller proved who they are; `act_as` is an admin's short-lived token to act as a user. */
export type CredentialKind = 'token' | 'api_key' | 'act_as';

/** The caller of an authenticated route, as every handler receives it. */
export interface Principal {
  profileId: string;
  sub: string;
  email: string;
  role: RoleName;
  via: CredentialKind;
  /** The API key's id, when one was used. */
  apiKeyId?: string;
  /** The admin behind an act-as token: the principal is the user acted as. */
  actor?: { profileId: string; email: string };
}
