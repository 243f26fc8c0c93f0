import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportError, PHONE_HEADER_NAMES } from '@scrub/engine';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import { DataImportError, type ImportRequest, importData } from '../reference-data/data-import.js';
import type { DatasetStore } from '../reference-data/dataset-store.js';
import type { InboxClaims } from './inbox-claims.js';
import { type InboxFileName, importOrder, isInProgress, readInboxFileName } from './inbox-file-name.js';
import type { InboxFolder } from './inbox-folder.js';

export interface RegistryInboxOptions {
  folder: InboxFolder;
  store: DatasetStore;
  claims: InboxClaims;
  mailer: Mailer;
  /** Who is told of a rejected file: SCRUB_ADMIN_EMAILS (the contact address when there are none). */
  to: readonly string[];
  logger: Logger | false;
  /** How long between looks (SCRUB_DNC_INBOX_POLL_SECONDS). */
  pollMs: number;
  /** SCRUB_FTC_ACCOUNT: the subscription account number for federal files whose name carries none. */
  ftcAccount: string | null;
  /** A local file changed this recently may still be being written: it waits for the next look. */
  settleMs?: number;
  /** The deadline of each call to the inbox's storage (a listing, a move); a download has `fetchTimeoutMs`. */
  callTimeoutMs?: number;
  fetchTimeoutMs?: number;
  /** How long `stop` waits for an import under way before returning. */
  stopTimeoutMs?: number;
}

/** What one look at the inbox did, by file name. */
export interface InboxLook {
  imported: string[];
  rejected: string[];
  /** Claimed by another process, or too fresh: left for a later look. */
  waiting: string[];
}

/** An import that failed because of the file, not because of this machine: the file is moved aside. */
const isFileProblem = (error: unknown) => error instanceof ImportError || error instanceof DataImportError;

function problemText(error: unknown): string {
  if (error instanceof ImportError) {
    const lines = error.problems.slice(0, 10).map((problem) => `  line ${problem.line}: ${problem.message}`);
    return [error.message, ...lines].join('\n');
  }
  return (error as Error).message;
}

/**
 * Watches the registry inbox (SCRUB_DNC_INBOX) in the processes that run the bulk worker: each FTC
 * full or change file, or state file, dropped there is imported once, through the same import as
 * `scrub-server data import`, and moved to `imported/`; a file that cannot be imported is moved to
 * `rejected/` beside a `.reason.txt`, and admins are mailed.
 */
export class RegistryInbox {
  #timer: NodeJS.Timeout | undefined;
  #looking: Promise<unknown> = Promise.resolve();
  readonly #stopping = new AbortController();

  constructor(private readonly options: RegistryInboxOptions) {}

  /** Looks now, then `pollMs` after each look ends. A look that fails is logged (see `look`) and the next one tries again. */
  start(): void {
    const lookThenWait = () => {
      if (this.#stopping.signal.aborted) return;
      this.look()
        .catch(() => {})
        .finally(() => {
          if (this.#stopping.signal.aborted) return;
          this.#timer = setTimeout(lookThenWait, this.options.pollMs);
          this.#timer.unref();
        });
    };
    lookThenWait();
  }

  /** Stops looking: no new file is started; an import under way is waited for, up to a deadline. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    clearTimeout(this.#timer);
    const deadline = this.options.stopTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#looking,
      new Promise((resolve) => {
        timer = setTimeout(resolve, deadline);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    this.options.folder.close();
  }

  /** One look at the inbox, after any in flight; a failure is logged and the next look tries again. */
  look(now = () => new Date()): Promise<InboxLook> {
    const look = this.#looking.then(() => this.#look(now));
    this.#looking = look.catch((error) => {
      const { logger } = this.options;
      if (logger && !this.#stopping.signal.aborted)
        logger.warn({ err: error }, 'could not look at the registry inbox; will try again');
    });
    return look;
  }

  /** Ends a call at its deadline, or at once when the inbox stops. */
  #signal(timeoutMs = this.options.callTimeoutMs ?? 120_000): AbortSignal {
    return AbortSignal.any([this.#stopping.signal, AbortSignal.timeout(timeoutMs)]);
  }

  async #look(now: () => Date): Promise<InboxLook> {
    const done: InboxLook = { imported: [], rejected: [], waiting: [] };
    if (this.#stopping.signal.aborted) return done;
    const settleMs = this.options.settleMs ?? 60_000;
    const entries = (await this.options.folder.list(this.#signal()))
      .filter((entry) => !isInProgress(entry.name))
      .map((entry) => {
        const file = readInboxFileName(entry.name);
        return { ...entry, file: 'problem' in file ? null : file };
      })
      .sort(importOrder);
    for (const entry of entries) {
      if (this.#stopping.signal.aborted) break;
      if (now().getTime() - entry.modifiedAt.getTime() < settleMs) {
        done.waiting.push(entry.name);
        continue;
      }
      const outcome = await this.#take(entry.name, now);
      done[outcome].push(entry.name);
    }
    return done;
  }

  /** One file: copied, claimed, imported or rejected, moved aside. */
  async #take(name: string, now: () => Date): Promise<keyof InboxLook> {
    const { folder, claims } = this.options;
    const dir = await mkdtemp(join(tmpdir(), 'scrub-inbox-'));
    try {
      const copy = join(dir, name);
      const { sha256 } = await folder.fetch(
        name,
        copy,
        this.#signal(this.options.fetchTimeoutMs ?? 1_800_000),
      );
      const claim = await claims.claim(sha256, name, now());
      if (claim !== 'claimed') {
        if (claim.state === 'importing') return 'waiting';
        // Imported already: a second drop of the same bytes, or a move that did not happen.
        const reason =
          claim.name === name
            ? null
            : `The same file (SHA-256 ${sha256}) was imported already, as ${claim.name} at ${claim.finished_at?.toISOString()} (${claim.dataset} version ${claim.version}): it was not imported again.`;
        if (reason !== null) {
          await folder.moveAside(name, 'rejected', reason, this.#signal());
          return 'rejected';
        }
        await folder.moveAside(name, 'imported', null, this.#signal()).catch(async (error: unknown) => {
          // Another worker that imported it may have moved it aside first: gone is what was wanted.
          if (await this.#waiting(name)) throw error;
        });
        return 'imported';
      }
      return await this.#import(name, copy, sha256, now);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Whether `name` still waits in the inbox (not moved aside). */
  async #waiting(name: string): Promise<boolean> {
    const entries = await this.options.folder.list(this.#signal());
    return entries.some((entry) => entry.name === name);
  }

  async #import(name: string, copy: string, sha256: string, now: () => Date): Promise<keyof InboxLook> {
    const { folder, claims, store, logger } = this.options;
    const file = readInboxFileName(name);
    let outcome: Awaited<ReturnType<typeof importData>>;
    try {
      if ('problem' in file) throw new DataImportError(file.problem);
      outcome = await importData(store, this.#request(file, copy, sha256));
    } catch (error) {
      if (!isFileProblem(error)) {
        await claims.release(sha256).catch(() => {});
        throw error;
      }
      const reason = `${name} was not imported: nothing changed, the service answers from the lists it had.\n\n${problemText(error)}`;
      await claims.rejected(sha256, reason, now());
      const where = await folder.moveAside(name, 'rejected', reason, this.#signal());
      await this.#tellAdmins(name, reason, where);
      if (logger) logger.warn({ file: name, reason }, 'registry inbox: file rejected');
      return 'rejected';
    }
    if (outcome.status !== 'imported') throw new Error(`${name}: not imported (${outcome.status})`);
    const ftcAccount = outcome.meta.kind === 'dnc' ? (outcome.meta.ftcAccount ?? null) : null;
    await claims.imported(
      sha256,
      { dataset: outcome.dataset, version: outcome.meta.version, ftcAccount },
      now(),
    );
    await folder.moveAside(name, 'imported', null, this.#signal());
    if (logger)
      logger.info(
        { file: name, dataset: outcome.dataset, version: outcome.meta.version },
        'registry inbox: imported',
      );
    return 'imported';
  }

  /** The same request `scrub-server data import` makes, in strict mode: one bad row refuses the file. */
  #request(file: InboxFileName, path: string, sha256: string): ImportRequest {
    const common = {
      files: [path],
      mode: 'strict' as const,
      releasedOn: file.releasedOn,
      origin: { via: 'inbox' as const, sha256 },
    };
    if (file.kind === 'state') {
      return { ...common, kind: 'state', state: file.state, csv: { column: { names: PHONE_HEADER_NAMES } } };
    }
    const ftcAccount = file.ftcAccount ?? this.options.ftcAccount;
    return { ...common, kind: file.kind, ...(ftcAccount === null ? {} : { ftcAccount }) };
  }

  async #tellAdmins(name: string, reason: string, where: string): Promise<void> {
    const { mailer, to } = this.options;
    const text = [
      reason,
      '',
      `The file was moved to ${where} (the reason beside it, in ${where}.reason.txt).`,
      `Fix it and drop it in ${this.options.folder.where} again, or import it by hand: scrub-server data import ...`,
    ].join('\n');
    for (const address of to) {
      await mailer.send({
        kind: 'dnc_inbox_rejected',
        to: address,
        subject: `Registry inbox: ${name} was not imported`,
        text,
      });
    }
  }
}
