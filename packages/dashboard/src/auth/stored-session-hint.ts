/**
 * Whether a sign-in may be stored in this browser, read without the SDK: the SDK keeps the pool it
 * signed in to under `scrub.identity`, and without that entry its `auth.session()` is null. A
 * visitor who never signed in (nearly everyone on the first screen) is thus known to be signed out
 * at once, and the first screen does not wait for the SDK (about 55 KB gzip with the contract's
 * schemas) to download and run. The jsdom test of two-step sign-in checks the entry against the SDK.
 */
const IDENTITY_KEY = 'scrub.identity';

export function mayBeSignedIn(): boolean {
  return (
    window.localStorage.getItem(IDENTITY_KEY) !== null || window.sessionStorage.getItem(IDENTITY_KEY) !== null
  );
}
