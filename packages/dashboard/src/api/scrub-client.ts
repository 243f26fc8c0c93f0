import { Scrub } from '@scrub/sdk';
import { RememberingStorage } from './remembering-storage';

export const tokenStorage = new RememberingStorage();

/**
 * The one client of the app. The dashboard is served by the service itself (or proxied to it by
 * `vite` in development), so the API is this page's own origin. No API key: the signed-in session
 * authenticates every call.
 */
export const scrub = new Scrub({
  baseURL: window.location.origin,
  apiKey: null,
  tokenStorage,
  // A browser user would rather see an error than wait a minute.
  timeout: 30_000,
});
