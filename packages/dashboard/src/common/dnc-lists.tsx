import { Alert, Badge, Group, List, Text } from '@mantine/core';
import type { DncListDate } from '@scrub/contract';

/** A list's name for people: `federal`, `state:NJ`, `internal:<account>` as the answers name them. */
export function listName(list: string): string {
  if (list === 'federal') return 'Federal DNC registry';
  if (list.startsWith('state:')) return `State list ${list.slice('state:'.length)}`;
  if (list.startsWith('internal:') || list === 'internal') return 'Your suppression list';
  return list;
}

const days = (count: number) => (count === 1 ? '1 day' : `${count} days`);

/** "released 2026-10-01, 40 days ago", or why there is no date. */
export function releaseText(date: DncListDate): string {
  if (date.released_on === null) {
    return date.stale ? 'release date not recorded' : 'your own list, kept up to date by you';
  }
  return `released ${date.released_on}, ${days(date.age_days ?? 0)} ago`;
}

/** A dark orange: the palette's darkest orange is below 4.5:1 under white badge text. */
export const STALE_COLOR = '#9a3412';

/**
 * The do-not-call lists an answer rests on or a job would be checked against, each with its
 * release date and age, and a badge on those too old to call a number clean.
 */
export function DncListDates({ lists, testId = 'dnc-lists' }: { lists: DncListDate[]; testId?: string }) {
  return (
    <List size="sm" spacing={2} data-testid={testId}>
      {lists.map((date) => (
        <List.Item key={date.list} data-testid="dnc-list">
          <Group gap={6} wrap="wrap">
            <Text size="sm" component="span">
              <Text fw={600} component="span" inherit>
                {listName(date.list)}:
              </Text>{' '}
              {releaseText(date)}
            </Text>
            {/* A space for the text read aloud or copied; the flex gap lays the badge out. */}
            {date.stale && ' '}
            {date.stale && (
              <Badge color={STALE_COLOR} size="sm">
                Stale
              </Badge>
            )}
          </Group>
        </List.Item>
      ))}
    </List>
  );
}

/**
 * What a customer should know of the shared lists before paying, in plain words, from `/config`:
 * none loaded, no federal registry, or lists too old to call a number clean. null when the federal
 * registry and every other list is fresh. The service's quote says the same (`dnc_notice`).
 */
export function listsNotice(lists: DncListDate[]): string | null {
  const sentences: string[] = [];
  if (lists.length === 0) {
    sentences.push(
      'No do-not-call list is loaded on this service: only your own suppression list is checked, and every other valid number will answer unchecked, never clean.',
    );
  } else if (!lists.some((date) => date.list === 'federal')) {
    sentences.push(
      'The federal registry is not loaded: only numbers in the area codes of the loaded state lists can answer clean; the others answer unchecked.',
    );
  }
  const stale = lists.filter((date) => date.stale);
  if (stale.length > 0) {
    sentences.push(
      `${stale.map((date) => `${listName(date.list)} (${releaseText(date)})`).join(', ')} ${stale.length === 1 ? 'is' : 'are'} too old: numbers not on ${stale.length === 1 ? 'it' : 'them'} answer unchecked, not clean.`,
    );
  }
  return sentences.length === 0 ? null : sentences.join(' ');
}

/**
 * The lists a check will consult (or did), with a plain notice when none is loaded or one is
 * stale: what the customer should know before paying for checks.
 */
export function DncListsPanel({
  lists,
  notice,
  title = 'Do-not-call lists consulted',
}: {
  lists: DncListDate[];
  notice: string | null;
  title?: string;
}) {
  return (
    <Alert
      color={notice ? 'orange' : 'blue'}
      variant="light"
      title={title}
      data-testid="dnc-lists-panel"
      role="status"
    >
      {lists.length > 0 && <DncListDates lists={lists} />}
      {notice && (
        <Text size="sm" mt={lists.length > 0 ? 'xs' : 0} fw={600} data-testid="dnc-notice">
          {notice}
        </Text>
      )}
    </Alert>
  );
}
