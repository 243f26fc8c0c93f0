import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import type { Database } from '../storage/schema.js';
import { DAY_MS, staleFrom } from './dnc-age.js';
import type { ReferenceData } from './reference-data.js';

/** Days before a list goes stale that admins are warned: a week ahead, then the day before. */
export const WARN_DAYS_BEFORE = [7, 1] as const;

/** How often the lists' ages are looked at: a warning is due at 00:00 UTC, sent within the hour. */
const EVERY_MS = 3600_000;

export interface DncAgeAlertsOptions {
  db: Kysely<Database>;
  referenceData: ReferenceData;
  mailer: Mailer;
  /** Who is warned: SCRUB_ADMIN_EMAILS (the contact address when there are none). */
  to: readonly string[];
  logger: Logger | false;
}

/** The warning due for a list now: the nearest one whose day has come, or null. */
function warningDue(staleAt: Date, now: Date): number | null {
  if (now.getTime() >= staleAt.getTime()) return null;
  const due = WARN_DAYS_BEFORE.filter((days) => now.getTime() >= staleAt.getTime() - days * DAY_MS);
  return due.length === 0 ? null : Math.min(...due);
}

/**
 * Warns admins by e-mail 7 days and 1 day before a federal or state list goes stale (past
 * SCRUB_DNC_MAX_AGE_DAYS, when it stops calling numbers clean). Each warning is claimed in the
 * database first (`dnc_age_alerts`, one row per list version and warning), so it is sent once
 * whatever the number of processes; a new release of the list is a new version, warned afresh.
 * Runs in the processes that run the bulk worker.
 */
export class DncAgeAlerts {
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> = Promise.resolve();

  constructor(private readonly options: DncAgeAlertsOptions) {}

  start(): void {
    this.#timer = setInterval(() => this.check(), EVERY_MS);
    this.#timer.unref();
    this.check();
  }

  /** One look at the lists' ages, after any in flight; a failure is logged and the next look tries again. */
  check(now = this.options.referenceData.ageRule.now()): Promise<void> {
    this.#checking = this.#checking.then(async () => {
      try {
        await this.#warn(now);
      } catch (error) {
        const { logger } = this.options;
        if (logger)
          logger.warn({ err: error }, 'could not check the do-not-call lists’ ages; will try again');
      }
    });
    return this.#checking;
  }

  /** Stops looking, once the look in flight (if any) is done. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#checking;
  }

  async #warn(now: Date): Promise<void> {
    const { db, referenceData, mailer, to, logger } = this.options;
    const { maxAgeDays } = referenceData.ageRule;
    for (const list of referenceData.current().dnc.lists) {
      const staleAt = staleFrom(list, maxAgeDays);
      if (staleAt === null) continue;
      const daysBefore = warningDue(staleAt, now);
      if (daysBefore === null) continue;
      const version = `${list.version}@${list.releasedOn}`;
      const claimed = await db
        .insertInto('dnc_age_alerts')
        .values({ list: list.name, version, days_before: daysBefore, sent_at: now })
        .onConflict((conflict) => conflict.doNothing())
        .returning('list')
        .executeTakeFirst();
      if (!claimed) continue;
      const when = daysBefore === 1 ? 'tomorrow' : `in ${daysBefore} days`;
      const subject = `Do-not-call list ${list.name} goes stale ${when}`;
      const text = [
        `The do-not-call list ${list.name} (version ${list.version}, released ${list.releasedOn}) reaches ${maxAgeDays} days of age (SCRUB_DNC_MAX_AGE_DAYS) at ${staleAt.toISOString()}.`,
        '',
        'From then on, numbers not on it answer unchecked (dnc: null), not clean; /health reports degraded; and, if the service requires the list (SCRUB_REQUIRE_DNC), checks answer 503 and bulk jobs are refused.',
        '',
        `Import a newer release before then: scrub-server data import ${list.name === 'federal' ? 'ftc' : 'state'} <file> --released YYYY-MM-DD`,
      ].join('\n');
      for (const address of to) await mailer.send({ kind: 'dnc_list_age', to: address, subject, text });
      if (logger)
        logger.info({ list: list.name, version, daysBefore }, 'warned admins of a list going stale');
    }
  }
}
