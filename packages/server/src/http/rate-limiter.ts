/**
 * At most `limit` hits per key (a client address) in each fixed window, counted in this process's
 * memory: enough to stop one client flooding a public form, with nothing to set up. Several
 * processes each count on their own, and a restart forgets, which is acceptable for that purpose.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetsAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; answers 0 when it is allowed, else the seconds until the key may try again. */
  hit(key: string): number {
    const now = this.now();
    this.#forgetEnded(now);
    const window = this.#windows.get(key);
    if (!window) {
      this.#windows.set(key, { count: 1, resetsAt: now + this.windowMs });
      return 0;
    }
    if (window.count >= this.limit) return Math.ceil((window.resetsAt - now) / 1000);
    window.count++;
    return 0;
  }

  /** Keeps memory bounded by the clients of one window. Maps iterate in insertion order, oldest first. */
  #forgetEnded(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.resetsAt > now) return;
      this.#windows.delete(key);
    }
  }
}
