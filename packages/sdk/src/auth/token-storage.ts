/**
 * Where a session's tokens are kept: the interface of the Web Storage API (and of
 * amazon-cognito-identity-js's `ICognitoStorage`), so `window.localStorage` and `sessionStorage`
 * fit as they are. Tokens are secrets: a storage that persists them must keep them private
 * (the CLI's file is readable by its owner only).
 */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  clear(): void;
}

/** Outside a browser, the default: the session lives as long as the client object. */
export class MemoryTokenStorage implements TokenStorage {
  readonly #items = new Map<string, string>();

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }

  clear(): void {
    this.#items.clear();
  }
}

/**
 * A browser's `localStorage`, so a session outlives the page; elsewhere (and where the browser
 * refuses storage, as sandboxed frames do) memory.
 */
export function defaultTokenStorage(): TokenStorage {
  const { window } = globalThis as { window?: { localStorage?: TokenStorage } };
  try {
    if (window?.localStorage) return window.localStorage;
  } catch {
    // Reading `localStorage` throws a SecurityError where storage is blocked.
  }
  return new MemoryTokenStorage();
}
