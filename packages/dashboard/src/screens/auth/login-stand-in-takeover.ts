/**
 * The app's side of the Login stand-in (login-stand-in.ts, shown by the entry before the app has
 * loaded): the real Login screen takes its values over; any other screen just removes it. Kept
 * apart from the stand-in's markup and styles, which the app does not need.
 */
export const STAND_IN_ID = 'login-stand-in';

export interface LoginStandInValues {
  email: string;
  password: string;
  remember: boolean;
  /** Submitted before the real form took over: it submits these values at once. */
  submitted: boolean;
  /** The field that had the focus, to focus again. */
  focused: 'email' | 'password' | null;
}

/** The stand-in's values, once: it is removed and the app's root shown. Null when none is shown. */
export function takeLoginStandIn(): LoginStandInValues | null {
  const standIn = document.getElementById(STAND_IN_ID);
  if (!standIn) return null;
  const form = standIn.querySelector('form') as HTMLFormElement;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  const active = document.activeElement;
  const values: LoginStandInValues = {
    email: field('email').value,
    password: field('password').value,
    remember: field('remember').checked,
    submitted: form.dataset.submitted === 'true',
    focused: active === field('email') ? 'email' : active === field('password') ? 'password' : null,
  };
  dropLoginStandIn();
  return values;
}

/** Removes the stand-in, if shown, and shows the app's root (another screen took its place). */
export function dropLoginStandIn(): void {
  document.getElementById(STAND_IN_ID)?.remove();
  document.getElementById('root')?.removeAttribute('hidden');
}
