import type { DncListDate, DncListsStatus } from '@scrub/contract';
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../test/render';
import { DncAgeBanner } from './dnc-age-banner';

const federal = (age: number, stale: boolean): DncListDate => ({
  list: 'federal',
  released_on: '2026-10-01',
  age_days: age,
  stale,
});

const status = (lists: DncListDate[]): DncListsStatus => ({
  loaded: lists.map((date) => date.list),
  required: [],
  missing_required: [],
  stale: lists.filter((date) => date.stale).map((date) => date.list),
  lists,
});

const banner = () => screen.queryByTestId('dnc-age-banner');

test('a stale federal registry: its name, release date and age, and the command that loads a fresh one', () => {
  renderScreen(<DncAgeBanner status={status([federal(40, true)])} />);
  const item = screen.getByTestId('dnc-age-list');
  expect(item.textContent).toContain('Federal DNC registry (released 2026-10-01, 40 days ago) is stale');
  expect(item.textContent).toContain('scrub-server data import ftc FILE --released YYYY-MM-DD');
  expect(banner()?.textContent).toContain('docs/reference-data.md');
  expect(screen.queryByTestId('dnc-age-no-federal')).toBeNull();
});

test('a list going stale within 7 days is announced with the days left; a younger one is not', () => {
  const { unmount } = renderScreen(
    <DncAgeBanner
      status={status([
        federal(26, false),
        { list: 'state:TX', released_on: '2026-10-20', age_days: 10, stale: false },
      ])}
    />,
  );
  const items = screen.getAllByTestId('dnc-age-list');
  expect(items.map((item) => item.textContent)).toEqual([
    expect.stringContaining('Federal DNC registry (released 2026-10-01, 26 days ago) goes stale in 5 days'),
  ]);
  unmount();

  renderScreen(<DncAgeBanner status={status([federal(10, false)])} />);
  expect(banner()).toBeNull();
});

test('with a stale state list the state import command is given', () => {
  renderScreen(
    <DncAgeBanner
      status={status([
        federal(3, false),
        { list: 'state:TX', released_on: '2026-08-01', age_days: 90, stale: true },
      ])}
    />,
  );
  expect(screen.getByTestId('dnc-age-list').textContent).toContain(
    'scrub-server data import state FILE --state TX --released YYYY-MM-DD',
  );
});

test('no federal registry at all: the banner says how the operator loads it', () => {
  renderScreen(<DncAgeBanner status={status([])} />);
  const item = screen.getByTestId('dnc-age-no-federal');
  expect(item.textContent).toContain('No federal do-not-call registry is loaded');
  expect(item.textContent).toContain('scrub-server data import ftc FILE --released YYYY-MM-DD');
});

test("the service's own maximum age, when known, sets when a list goes stale", () => {
  renderScreen(<DncAgeBanner status={status([federal(12, false)])} maxAgeDays={14} />);
  expect(screen.getByTestId('dnc-age-list').textContent).toContain('goes stale in 2 days');
});

test('the maximum age /config reports counts, not the default', () => {
  renderScreen(<DncAgeBanner status={{ ...status([federal(12, false)]), max_age_days: 15 }} />);
  expect(screen.getByTestId('dnc-age-list').textContent).toContain('goes stale in 3 days');
});
