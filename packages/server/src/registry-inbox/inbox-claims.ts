import type { Kysely, Selectable } from 'kysely';
import type { Database, RegistryInboxFilesTable } from '../storage/schema.js';

export type InboxFileRow = Selectable<RegistryInboxFilesTable>;

/**
 * The registry inbox's files in the database (`registry_inbox_files`), by content: a file is
 * claimed before it is imported, so that of several processes (or a restart, or the same file
 * dropped twice) one imports it, once.
 */
export class InboxClaims {
  /** `staleMs`: a claim this old belongs to a process that died mid-import, and is taken over. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly staleMs: number,
  ) {}

  /**
   * Claims the file for this process: a file never seen, one rejected before (dropped again,
   * perhaps renamed), or one whose claim went stale. Otherwise the row that stands in the way.
   */
  async claim(sha256: string, name: string, now: Date): Promise<'claimed' | InboxFileRow> {
    const inserted = await this.db
      .insertInto('registry_inbox_files')
      .values({ sha256, name, state: 'importing', claimed_at: now })
      .onConflict((conflict) => conflict.doNothing())
      .returning('sha256')
      .executeTakeFirst();
    if (inserted) return 'claimed';
    const retaken = await this.db
      .updateTable('registry_inbox_files')
      .set({ name, state: 'importing', claimed_at: now, finished_at: null, reason: null })
      .where('sha256', '=', sha256)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'rejected'),
          eb.and([
            eb('state', '=', 'importing'),
            eb('claimed_at', '<', new Date(now.getTime() - this.staleMs)),
          ]),
        ]),
      )
      .returning('sha256')
      .executeTakeFirst();
    if (retaken) return 'claimed';
    return this.db
      .selectFrom('registry_inbox_files')
      .selectAll()
      .where('sha256', '=', sha256)
      .executeTakeFirstOrThrow();
  }

  async imported(
    sha256: string,
    about: { dataset: string; version: string; ftcAccount: string | null },
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('registry_inbox_files')
      .set({
        state: 'imported',
        finished_at: now,
        dataset: about.dataset,
        version: about.version,
        ftc_account: about.ftcAccount,
      })
      .where('sha256', '=', sha256)
      .execute();
  }

  async rejected(sha256: string, reason: string, now: Date): Promise<void> {
    await this.db
      .updateTable('registry_inbox_files')
      .set({ state: 'rejected', finished_at: now, reason })
      .where('sha256', '=', sha256)
      .execute();
  }

  /** Gives the claim up (the import failed for a reason not the file's): the next look tries again. */
  async release(sha256: string): Promise<void> {
    await this.db
      .deleteFrom('registry_inbox_files')
      .where('sha256', '=', sha256)
      .where('state', '=', 'importing')
      .execute();
  }

  /** The last file rejected, for admins. */
  async lastRejected(): Promise<InboxFileRow | null> {
    const row = await this.db
      .selectFrom('registry_inbox_files')
      .selectAll()
      .where('state', '=', 'rejected')
      .orderBy('finished_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ?? null;
  }
}
