import { loadScrub } from '../../api/load-scrub';

/** Where the person was going before the hosted sign-in page, for /callback to go back to. */
const RETURN_KEY = 'scrub.hostedReturnTo';

/** The hosted sign-in page's address when the pool has one (GET /config), else null. */
export async function hostedSignInUrl(): Promise<string | null> {
  const scrub = await loadScrub();
  return scrub.auth.hostedSignInUrl({ redirectUri: `${window.location.origin}/callback` });
}

export function saveHostedReturnPath(path: string | undefined): void {
  if (path) window.sessionStorage.setItem(RETURN_KEY, path);
  else window.sessionStorage.removeItem(RETURN_KEY);
}

export function takeHostedReturnPath(): string | null {
  const path = window.sessionStorage.getItem(RETURN_KEY);
  window.sessionStorage.removeItem(RETURN_KEY);
  // Only a path of this app, never another site.
  return path?.startsWith('/') && !path.startsWith('//') ? path : null;
}
