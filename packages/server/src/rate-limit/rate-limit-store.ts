import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.js';

/** Units a process asks for in one bucket's window. */
export interface Claim {
  bucket: string;
  windowStart: Date;
  windowEnd: Date;
  units: number;
}

/** How often a process deletes windows that have ended. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The request counts every process shares, one row per bucket and fixed window. Claiming adds to
 * the count in one statement (an upsert), so two processes never hand out the same unit, on
 * PostgreSQL as on the embedded PGlite.
 */
export class RateLimitStore {
  #lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds each claim's units to its window; answers each bucket's count after the addition. */
  async claim(claims: Claim[]): Promise<Map<string, number>> {
    await this.#sweep();
    const rows = await this.db
      .insertInto('rate_limit_windows')
      .values(
        claims.map((c) => ({
          bucket: c.bucket,
          window_start: c.windowStart,
          hits: c.units,
          expires_at: c.windowEnd,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['bucket', 'window_start'])
          .doUpdateSet({ hits: sql`rate_limit_windows.hits + excluded.hits` }),
      )
      .returning(['bucket', 'hits'])
      .execute();
    return new Map(rows.map((row) => [row.bucket, row.hits]));
  }

  async #sweep(): Promise<void> {
    const now = this.now();
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    await this.db.deleteFrom('rate_limit_windows').where('expires_at', '<', new Date(now)).execute();
  }
}
