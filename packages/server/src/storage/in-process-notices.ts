type Listener = (payload: string) => void;

/**
 * `NOTIFY` within one process: the embedded database belongs to this process alone, so a notice
 * sent through its handle is handed to the handle's listeners at once, with no statement run (two
 * fewer round trips per bulk job: queued, ended). Notices sent by SQL still come through PGlite.
 */
export class InProcessNotices {
  readonly #listeners = new Map<string, Set<Listener>>();

  /** Calls `listener` with each notice sent on `channel`; returns the unsubscribe. */
  add(channel: string, listener: Listener): () => void {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Hands `payload` to every listener of `channel`; one that throws does not stop the others. */
  send(channel: string, payload: string): void {
    for (const listener of [...(this.#listeners.get(channel) ?? [])]) {
      try {
        listener(payload);
      } catch {
        // As with NOTIFY, the sender never hears of a listener's failure.
      }
    }
  }
}
