import type { Client } from 'pg';

/** How long to wait before connecting again after the listening connection broke. */
const RECONNECT_MS = 1000;

type Listener = (payload: string) => void;

/**
 * `LISTEN` on PostgreSQL: one connection of its own per process (a pooled one would be handed to
 * other queries), opened on the first `listen`, opened again when it breaks. Notifications sent
 * while it was down are lost, so what listens must also look for itself now and then (the bulk
 * worker does: a notification only makes it look sooner).
 */
export class PostgresListeners {
  readonly #listeners = new Map<string, Set<Listener>>();
  #client: Promise<Client> | null = null;
  #closed = false;

  constructor(private readonly connect: () => Client) {}

  async listen(channel: string, onPayload: Listener): Promise<() => Promise<void>> {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      const client = await this.#connection();
      await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    } else {
      await this.#connection();
    }
    set.add(onPayload);
    return async () => {
      set.delete(onPayload);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    if (client) await (await client.catch(() => null))?.end().catch(() => {});
  }

  #connection(): Promise<Client> {
    this.#client ??= this.#open();
    return this.#client;
  }

  async #open(): Promise<Client> {
    const client = this.connect();
    client.on('notification', ({ channel, payload }) => {
      for (const listener of this.#listeners.get(channel) ?? []) listener(payload ?? '');
    });
    client.on('error', () => this.#reopen(client));
    client.on('end', () => this.#reopen(client));
    try {
      await client.connect();
      for (const channel of this.#listeners.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      return client;
    } catch (error) {
      this.#client = null;
      throw error;
    }
  }

  #reopen(broken: Client): void {
    if (this.#closed) return;
    broken.removeAllListeners('end');
    this.#client = null;
    setTimeout(() => {
      if (!this.#closed && this.#listeners.size > 0) this.#connection().catch(() => this.#reopen(broken));
    }, RECONNECT_MS).unref();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
