import { fireEvent, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { type JobChoices, JobOptionsForm, jobChoicesPayload, NO_CHOICES } from './job-options';

const lists = {
  lists: ['litigators'],
  available: [
    { name: 'litigators', version: 'v1', released_on: '2026-11-01', numbers: 1200 },
    { name: 'vendor-x', version: 'v2', released_on: null, numbers: 3 },
  ],
};

test("ticks the account's default lists for the job, and a change names the job's own", () => {
  const onChange = vi.fn();
  renderScreen(<JobOptionsForm lists={lists} lookup={null} value={NO_CHOICES} onChange={onChange} />);
  const litigators = screen.getByLabelText('litigators (released 2026-11-01)') as HTMLInputElement;
  const vendor = screen.getByLabelText('vendor-x') as HTMLInputElement;
  expect(litigators.checked).toBe(true);
  expect(vendor.checked).toBe(false);
  // No lookup offered: no box to tick.
  expect(screen.queryByTestId('carrier-lookup')).toBeNull();

  fireEvent.click(vendor);
  const changed: JobChoices = onChange.mock.calls[0]![0];
  expect(changed).toEqual({ lists: ['litigators', 'vendor-x'], lookup: false, callingWindow: false });
  expect(jobChoicesPayload(changed)).toEqual({ lists: ['litigators', 'vendor-x'] });
  // Untouched, the job names no lists: the service counts the account's default.
  expect(jobChoicesPayload(NO_CHOICES)).toEqual({});
});

test('offers the carrier lookup with its price only where the service has one', () => {
  const onChange = vi.fn();
  renderScreen(
    <JobOptionsForm
      lists={{ lists: [], available: [] }}
      lookup={{ credits: 2 }}
      value={NO_CHOICES}
      onChange={onChange}
    />,
  );
  expect(screen.queryByText('Flag lists for this file')).toBeNull();
  const box = screen.getByLabelText(/Look each number up with its carrier \(2 credits more a record/);
  fireEvent.click(box);
  const changed: JobChoices = onChange.mock.calls[0]![0];
  expect(changed).toEqual({ lists: null, lookup: true, callingWindow: false });
  expect(jobChoicesPayload(changed)).toEqual({ lookup: 'carrier' });
});

test('always offers the calling window, which adds the Time Zone and Callable Now columns', () => {
  const onChange = vi.fn();
  renderScreen(
    <JobOptionsForm
      lists={{ lists: [], available: [] }}
      lookup={null}
      value={NO_CHOICES}
      onChange={onChange}
    />,
  );
  expect(screen.queryByText('Flag lists for this file')).toBeNull();
  expect(screen.queryByTestId('carrier-lookup')).toBeNull();
  fireEvent.click(screen.getByLabelText('Add the calling window (free)'));
  const changed: JobChoices = onChange.mock.calls[0]![0];
  expect(changed).toEqual({ lists: null, lookup: false, callingWindow: true });
  expect(jobChoicesPayload(changed)).toEqual({ columns: ['timezone', 'callable_now'] });
});
