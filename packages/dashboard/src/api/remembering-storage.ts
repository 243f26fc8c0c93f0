import type { TokenStorage } from '@scrub/sdk';

const REMEMBER_KEY = 'scrub.remember';

/**
 * The session's tokens live in localStorage when "Remember me" was ticked (they survive closing the
 * browser), otherwise in sessionStorage (gone with the tab). Reads look in both, so a session is
 * found wherever the last sign-in put it.
 */
export class RememberingStorage implements TokenStorage {
  setRemember(remember: boolean): void {
    window.localStorage.setItem(REMEMBER_KEY, remember ? '1' : '0');
  }

  private target(): Storage {
    return window.localStorage.getItem(REMEMBER_KEY) === '0' ? window.sessionStorage : window.localStorage;
  }

  getItem(key: string): string | null {
    return (
      this.target().getItem(key) ?? window.localStorage.getItem(key) ?? window.sessionStorage.getItem(key)
    );
  }

  setItem(key: string, value: string): void {
    this.target().setItem(key, value);
  }

  removeItem(key: string): void {
    window.localStorage.removeItem(key);
    window.sessionStorage.removeItem(key);
  }

  /** Only the session's own keys: the colour scheme and other settings stay. */
  clear(): void {
    for (const storage of [window.localStorage, window.sessionStorage]) {
      for (const key of Object.keys(storage)) {
        if (key.startsWith('CognitoIdentityServiceProvider.') || key.startsWith('scrub.identity')) {
          storage.removeItem(key);
        }
      }
    }
  }
}
