/**
 * The pause of a loop that polls for work: it lasts until the next poll, or ends early when woken
 * (work was added here, or the loop is stopping). A wake-up that comes while the loop is busy
 * ends its next pause at once, so work added meanwhile is not left until the poll after.
 */
export class PollPause {
  #wake: (() => void) | null = null;
  #woken = false;

  /** Waits `ms`, or less if woken. */
  async wait(ms: number): Promise<void> {
    if (!this.#woken) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
    this.#woken = false;
  }

  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }
}
