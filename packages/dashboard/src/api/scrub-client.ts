import { Scrub } from '@scrub/sdk';
import { readActing } from '../auth/acting';
import { RememberingStorage } from './remembering-storage';

export const tokenStorage = new RememberingStorage();

const options = {
  baseURL: window.location.origin,
  apiKey: null,
  tokenStorage,
  // A browser user would rather see an error than wait a minute.
  timeout: 30_000,
};

/**
 * The signed-in person's own client, whatever they are acting as: the admin screens, which an
 * act-as token may never call, use it. The dashboard is served by the service itself (or proxied
 * to it by `vite` in development), so the API is this page's own origin. No API key: the signed-in
 * session authenticates every call.
 */
export const ownScrub = new Scrub(options);

const acting = readActing();

/**
 * The one client every other screen uses: the signed-in person's, or, while an admin acts as a
 * user, one whose calls carry the act-as token (it takes the place of the session's ID token).
 */
export const scrub = acting
  ? new Scrub({ ...options, defaultHeaders: { authorization: `Bearer ${acting.token}` } })
  : ownScrub;
