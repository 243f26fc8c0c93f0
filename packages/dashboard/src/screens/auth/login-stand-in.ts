/**
 * The Login form as plain DOM, shown by the entry script to a visitor with no stored sign-in before
 * React, Mantine and the shell (the `index` bundle, about 145 KB gzip) are downloaded and run. It
 * is usable at once: a visitor can type, tick Remember me, follow its links (handed to the app, no
 * second page load), and submit. When the real Login screen mounts it takes the stand-in's values
 * (and a submit made meanwhile) with `takeLoginStandIn` (login-stand-in-takeover.ts), removes it
 * and signs in exactly as always: the same checks, messages and two-step sign-in. Styles: login-stand-in.css, Mantine's variables so both schemes match.
 */
import './login-stand-in.css';

import { STAND_IN_ID } from './login-stand-in-takeover';

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
  // A landmark by role, not a <main> element: the app's own <main> is in the hidden root meanwhile.
  const standIn = document.createElement('div');
  standIn.id = STAND_IN_ID;
  standIn.setAttribute('role', 'main');
  standIn.innerHTML = MARKUP;
  const form = standIn.querySelector('form') as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    form.dataset.submitted = 'true';
    const button = form.querySelector('button') as HTMLButtonElement;
    button.setAttribute('aria-busy', 'true');
    button.disabled = true;
  });
  for (const link of standIn.querySelectorAll('a')) link.addEventListener('click', handOver);
  root.hidden = true;
  root.before(standIn);
}

/**
 * Forgot password and Sign up without loading the page again: the address changes at once and the
 * stand-in stays until the app, arriving or already there (told by a popstate, as the Back button
 * would), shows that screen and removes it. A click that opens a new tab or window is left alone.
 */
function handOver(event: MouseEvent): void {
  const link = event.currentTarget as HTMLAnchorElement;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  link.setAttribute('aria-busy', 'true');
  window.history.pushState(null, '', link.href);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
