import type { DncListDate } from '@scrub/contract';
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../test/render';
import { DncListsPanel, listsNotice } from './dnc-lists';

const fresh: DncListDate = { list: 'federal', released_on: '2026-11-20', age_days: 7, stale: false };
const staleTexas: DncListDate = { list: 'state:TX', released_on: '2026-08-01', age_days: 118, stale: true };

const shown = () => screen.getAllByTestId('dnc-list').map((item) => item.textContent);

test('the lists a job will consult, each with its release date and age, and a badge on a stale one', () => {
  const lists = [fresh, staleTexas];
  renderScreen(<DncListsPanel lists={lists} notice={listsNotice(lists)} />);
  expect(shown()).toEqual([
    'Federal DNC registry: released 2026-11-20, 7 days ago',
    'State list TX: released 2026-08-01, 118 days ago Stale',
  ]);
  expect(screen.getByTestId('dnc-notice').textContent).toBe(
    'State list TX (released 2026-08-01, 118 days ago) is too old: numbers not on it answer unchecked, not clean.',
  );
});

test('no list loaded: the panel says plainly that valid numbers will answer unchecked', () => {
  renderScreen(<DncListsPanel lists={[]} notice={listsNotice([])} />);
  expect(screen.queryAllByTestId('dnc-list')).toEqual([]);
  expect(screen.getByTestId('dnc-notice').textContent).toMatch(
    /^No do-not-call list is loaded on this service: .* will answer unchecked, never clean\.$/,
  );
});

test('a state list without the federal registry: only its area codes can answer clean', () => {
  const texas = { ...staleTexas, age_days: 3, stale: false, released_on: '2026-11-24' };
  expect(listsNotice([texas])).toMatch(/^The federal registry is not loaded/);
});

test('every list fresh, the federal registry among them: no notice', () => {
  renderScreen(<DncListsPanel lists={[fresh]} notice={listsNotice([fresh])} />);
  expect(screen.queryByTestId('dnc-notice')).toBeNull();
  expect(shown()).toEqual(['Federal DNC registry: released 2026-11-20, 7 days ago']);
});

test("an answer's own suppression list is named as the customer's, with no release date", () => {
  renderScreen(
    <DncListsPanel
      lists={[{ list: 'internal:acct_1', released_on: null, age_days: null, stale: false }]}
      notice={null}
    />,
  );
  expect(shown()).toEqual(['Your suppression list: your own list, kept up to date by you']);
});
