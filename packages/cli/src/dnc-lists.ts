import type { DncListDate } from '@scrub/sdk';

/** "federal (released 2026-11-20, 7 days old)", "state:TX (released 2026-09-01, 87 days old: stale)". */
function listDate(date: DncListDate): string {
  if (date.released_on === null)
    return date.stale ? `${date.list} (release date not recorded: stale)` : date.list;
  const age = `${date.age_days} ${date.age_days === 1 ? 'day' : 'days'} old`;
  return `${date.list} (released ${date.released_on}, ${date.stale ? `${age}: stale` : age})`;
}

/**
 * The do-not-call lists a check will consult, for stderr before a charge: their dates, or plainly
 * that there are none (then every valid number answers unchecked, never clean), and what a stale
 * list means. `notice` is the service's own sentence, when it gave one.
 */
export function describeDncLists(lists: readonly DncListDate[], notice?: string | null): string {
  const lines: string[] = [];
  if (lists.length === 0) {
    lines.push(
      notice ??
        'No do-not-call list is loaded on this service: every valid number will answer DNC unchecked, never clean.',
    );
    return `${lines.join('\n')}\n`;
  }
  lines.push(`Do-not-call lists: ${lists.map(listDate).join(', ')}.`);
  if (notice) lines.push(notice);
  else if (lists.some((list) => list.stale)) {
    lines.push(
      'A stale list still flags the numbers it holds, but numbers not on it answer unchecked, not clean.',
    );
  }
  return `${lines.join('\n')}\n`;
}
