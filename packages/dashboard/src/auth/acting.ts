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
export function startActing(acting: Acting): void {
  window.localStorage.setItem(KEY, JSON.stringify(acting));
  window.location.assign('/accountInfo');
}

/** Back to the admin's own account: the page reloads onto Admin. */
export function stopActing(): void {
  forgetActing();
  window.location.assign('/admin');
}
