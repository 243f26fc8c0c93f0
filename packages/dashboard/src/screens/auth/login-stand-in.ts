/**
 * The Login form as plain DOM, shown by the entry script to a visitor with no stored sign-in before
 * React, Mantine and the shell (the `index` bundle, about 145 KB gzip) are downloaded and run. It
 * is usable at once: a visitor can type, tick Remember me, follow its links, and submit. When the
 * real Login screen mounts it takes the stand-in's values (and a submit made meanwhile) with
 * `takeLoginStandIn`, removes it and signs in exactly as always: the same checks, messages and
 * two-step sign-in. Styles: login-stand-in.css, Mantine's variables so both schemes match.
 */
import './login-stand-in.css';

const STAND_IN_ID = 'login-stand-in';

export interface LoginStandInValues {
  email: string;
  password: string;
  remember: boolean;
  /** Submitted before the real form took over: it submits these values at once. */
  submitted: boolean;
  /** The field that had the focus, to focus again. */
  focused: 'email' | 'password' | null;
}

const MARKUP = `
<div class="stand-in-card">
  <p class="stand-in-logo" aria-hidden="true">Scrub</p>
  <h1 class="stand-in-title">Log in</h1>
  <form novalidate>
    <label class="stand-in-label" for="stand-in-email">Email <span class="stand-in-required" aria-hidden="true">*</span></label>
    <input class="stand-in-input" id="stand-in-email" name="email" type="email" autocomplete="email" required>
    <label class="stand-in-label stand-in-gap" for="stand-in-password">Password <span class="stand-in-required" aria-hidden="true">*</span></label>
    <input class="stand-in-input" id="stand-in-password" name="password" type="password" autocomplete="current-password" required>
    <div class="stand-in-row">
      <label class="stand-in-check"><input type="checkbox" name="remember" checked> Remember me</label>
      <a class="stand-in-link stand-in-small" href="/forgot">Forgot password?</a>
    </div>
    <button class="stand-in-button" type="submit">Log In</button>
  </form>
  <p class="stand-in-small stand-in-center">No account yet? <a class="stand-in-link" href="/signup">Sign up</a></p>
</div>`;

/** Shows the stand-in above `root` (kept hidden until the real screen takes over). */
export function showLoginStandIn(root: HTMLElement): void {
  const standIn = document.createElement('main');
  standIn.id = STAND_IN_ID;
  standIn.innerHTML = MARKUP;
  const form = standIn.querySelector('form') as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    form.dataset.submitted = 'true';
    const button = form.querySelector('button') as HTMLButtonElement;
    button.setAttribute('aria-busy', 'true');
    button.disabled = true;
  });
  root.hidden = true;
  root.before(standIn);
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
