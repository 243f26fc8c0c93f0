/**
 * Acting as a user (seed 2, "acting as a user"): the admin's own session stays stored, and the
 * act-as token the service gave is kept beside it. While it is kept, the app's client sends it on
 * every API call (the service answers as the user, and audits each call); switching back forgets
 * it and reloads, so nothing cached of the user is left. No SDK here: the shell reads it at once.
 */
export interface Acting {
  token: string;
  email: string;
  user_id: string;
  expires_at: string;
  /** The screen "Switch back" returns to: where the acting began (Admin, or an Agency's Users). */
  return_to?: string;
}

const KEY = 'scrub.acting-as';

/** The act-as token in use, or null; one past its expiry is forgotten. */
export function readActing(): Acting | null {
  try {
    const stored = window.localStorage.getItem(KEY);
    if (!stored) return null;
    const acting = JSON.parse(stored) as Acting;
    if (Date.parse(acting.expires_at) > Date.now()) return acting;
  } catch {
    // Unreadable: treated as absent, and removed below.
  }
  forgetActing();
  return null;
}

export function forgetActing(): void {
  window.localStorage.removeItem(KEY);
}

/** Starts acting as the user: the page reloads onto their AccountInfo, every call theirs. */
export function startActing(acting: Acting, returnTo = '/admin'): void {
  window.localStorage.setItem(KEY, JSON.stringify({ ...acting, return_to: returnTo }));
  window.location.assign('/accountInfo');
}

/** Back to one's own account: the page reloads onto the screen the acting began on. */
export function stopActing(): void {
  const returnTo = readActing()?.return_to;
  forgetActing();
  window.location.assign(returnTo?.startsWith('/') ? returnTo : '/admin');
}
