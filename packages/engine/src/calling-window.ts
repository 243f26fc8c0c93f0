import { areaCodeInfo } from './area-codes.ts';
import type { LineType } from './classify.ts';
import type { AreaCodeInfo } from './nanpa/npa-table.ts';

/** The legal calling window, local time: from 08:00 up to (not including) 21:00. */
export const CALLING_WINDOW = { fromMinute: 8 * 60, toMinute: 21 * 60 } as const;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Minutes since local midnight in `zone` at `at`. */
export function localMinuteOf(zone: string, at: Date): number {
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(zone).formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/**
 * Whether an instant is inside the calling window, zone by zone, worked out once per zone: a
 * batch or a file evaluates every number at the same instant.
 */
export class CallingClock {
  readonly at: Date;
  readonly #byZone = new Map<string, boolean>();

  constructor(at: Date = new Date()) {
    this.at = at;
  }

  /** Whether it is 08:00-20:59 in `zone` now. */
  inWindow(zone: string): boolean {
    let inside = this.#byZone.get(zone);
    if (inside === undefined) {
      const minute = localMinuteOf(zone, this.at);
      inside = minute >= CALLING_WINDOW.fromMinute && minute < CALLING_WINDOW.toMinute;
      this.#byZone.set(zone, inside);
    }
    return inside;
  }

  /**
   * The strictest answer for a number whose area code spans `zones`: true only when it is inside
   * the window in every one of them; null without a zone (never true for what is not known).
   */
  callable(zones: readonly string[]): boolean | null {
    if (zones.length === 0) return null;
    for (const zone of zones) if (!this.inWindow(zone)) return false;
    return true;
  }
}

// Area codes read once each: batches answer a million numbers a second.
const areaCodes = new Map<number, AreaCodeInfo>();
function cachedAreaCodeInfo(npa: number): AreaCodeInfo {
  let info = areaCodes.get(npa);
  if (info === undefined) {
    info = areaCodeInfo(npa);
    areaCodes.set(npa, info);
  }
  return info;
}

export interface CallingWindowAnswer {
  /** IANA zones of the number's area code; [] for invalid, toll-free and non-geographic numbers. */
  timeZones: readonly string[];
  /** Inside 08:00-21:00 local time in every zone; null when that cannot be said (see `reason`). */
  callableNow: boolean | null;
  /** Why `callableNow` is null; null otherwise. */
  reason: string | null;
}

/**
 * The calling window of a checked number: its area code's time zones and whether `clock`'s instant
 * is inside the window in all of them. `e164` is '+1NPANXXXXXX', or null for an unreadable input.
 */
export function callingWindowOf(
  e164: string | null,
  lineType: LineType,
  clock: CallingClock,
): CallingWindowAnswer {
  if (e164 === null || lineType === 'invalid') {
    return { timeZones: [], callableNow: null, reason: 'The number is invalid: there is no one to call.' };
  }
  const info = cachedAreaCodeInfo(Number(e164.slice(2, 5)));
  if (lineType === 'toll_free' || info.status === 'toll_free') {
    return {
      timeZones: [],
      callableNow: null,
      reason: 'Toll-free numbers have no local time zone: the calling window cannot be told from the number.',
    };
  }
  if (info.status !== 'geographic') {
    return {
      timeZones: [],
      callableNow: null,
      reason: `Area code ${info.npa} is not geographic: it has no local time zone.`,
    };
  }
  if (info.timeZones.length === 0) {
    return {
      timeZones: [],
      callableNow: null,
      reason: `NANPA's area-code report gives no time zone for area code ${info.npa}.`,
    };
  }
  return { timeZones: info.timeZones, callableNow: clock.callable(info.timeZones), reason: null };
}
