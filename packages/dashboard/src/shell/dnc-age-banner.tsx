import { Alert, Code, List, Text } from '@mantine/core';
import type { DncListDate, DncListsStatus } from '@scrub/contract';
import { listName, releaseText } from '../common/dnc-lists';

/**
 * SCRUB_DNC_MAX_AGE_DAYS's default, the Telemarketing Sales Rule's 31 days (the contract's
 * FTC_REGISTRY_MAX_AGE_DAYS), for an older service whose `/config` does not report its own
 * (`dnc_lists.max_age_days`). Written here, not imported, so that the shell loads none of the
 * contract's schemas before the first screen.
 */
export const DEFAULT_MAX_AGE_DAYS = 31;

/** How many days before a list goes stale the admins are told (the service mails them 7 and 1 days before). */
export const WARN_DAYS_BEFORE_STALE = 7;

export interface ListsNeedingAttention {
  /** No federal registry is loaded: numbers outside the loaded states' area codes answer unchecked. */
  noFederal: boolean;
  /** Lists stale now, or going stale within `WARN_DAYS_BEFORE_STALE` days, each with the days left (0: stale). */
  aging: { date: DncListDate; daysLeft: number }[];
}

/**
 * What the operator's admins must act on, from `/config`'s lists: a missing federal registry, and
 * lists stale or going stale within a week. `maxAgeDays`: the service's SCRUB_DNC_MAX_AGE_DAYS.
 */
export function listsNeedingAttention(
  status: DncListsStatus,
  maxAgeDays: number = status.max_age_days ?? DEFAULT_MAX_AGE_DAYS,
): ListsNeedingAttention {
  const lists = status.lists ?? [];
  const aging = lists.flatMap((date) => {
    if (date.stale) return [{ date, daysLeft: 0 }];
    if (date.age_days === null) return [];
    const daysLeft = maxAgeDays - date.age_days;
    return daysLeft <= WARN_DAYS_BEFORE_STALE ? [{ date, daysLeft }] : [];
  });
  return { noFederal: !status.loaded.includes('federal'), aging };
}

const when = (daysLeft: number) =>
  daysLeft === 0
    ? 'is stale: numbers not on it answer unchecked, not clean'
    : `goes stale in ${daysLeft === 1 ? '1 day' : `${daysLeft} days`}`;

/** The command that loads a list, as docs/reference-data.md gives it. */
function importCommand(list: string): string {
  if (list.startsWith('state:')) {
    return `scrub-server data import state FILE --state ${list.slice('state:'.length)} --released YYYY-MM-DD`;
  }
  return 'scrub-server data import ftc FILE --released YYYY-MM-DD';
}

/**
 * For the operator's admins, in the shell: the do-not-call lists that are stale or go stale within
 * a week (name, release date, age) and no federal registry at all, each with how the operator loads
 * a fresh one. Nothing when all is well.
 */
export function DncAgeBanner({ status, maxAgeDays }: { status: DncListsStatus; maxAgeDays?: number }) {
  const { noFederal, aging } = listsNeedingAttention(status, maxAgeDays);
  if (!noFederal && aging.length === 0) return null;
  const anyStale = noFederal || aging.some(({ daysLeft }) => daysLeft === 0);
  return (
    <Alert
      color={anyStale ? 'red' : 'orange'}
      variant="light"
      mb="md"
      role="status"
      title="Do-not-call lists need the operator"
      data-testid="dnc-age-banner"
    >
      <List size="sm" spacing={4}>
        {noFederal && (
          <List.Item data-testid="dnc-age-no-federal">
            No federal do-not-call registry is loaded: numbers outside the loaded state lists answer
            unchecked, never clean. The operator downloads the registry with the organisation's own FTC login
            and loads it with <Code>{importCommand('federal')}</Code>.
          </List.Item>
        )}
        {aging.map(({ date, daysLeft }) => (
          <List.Item key={date.list} data-testid="dnc-age-list">
            {listName(date.list)} ({releaseText(date)}) {when(daysLeft)}. Load a fresh release with{' '}
            <Code>{importCommand(date.list)}</Code>.
          </List.Item>
        ))}
      </List>
      <Text size="xs" mt="xs">
        How to fetch and load the lists: docs/reference-data.md (and the README's quick start) in the Scrub
        repository; <Code>scrub-server data status</Code> shows each list's age.
      </Text>
    </Alert>
  );
}
