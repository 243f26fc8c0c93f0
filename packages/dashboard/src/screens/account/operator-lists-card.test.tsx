import { fireEvent, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { OperatorListsForm } from './operator-lists-card';

const settings = {
  lists: ['litigators'],
  available: [
    { name: 'litigators', version: 'v1', released_on: '2026-11-01', numbers: 1200 },
    { name: 'vendor-x', version: 'v2', released_on: null, numbers: 3 },
  ],
};

test('shows every list with the default ticked, and saves the lists ticked', () => {
  const onSave = vi.fn();
  renderScreen(<OperatorListsForm settings={settings} saving={false} onSave={onSave} />);
  const litigators = screen.getByLabelText(
    'litigators (1,200 numbers, released 2026-11-01)',
  ) as HTMLInputElement;
  const vendor = screen.getByLabelText('vendor-x (3 numbers)') as HTMLInputElement;
  expect(litigators.checked).toBe(true);
  expect(vendor.checked).toBe(false);
  expect(screen.getByText(/not a do-not-call listing/)).toBeTruthy();

  fireEvent.click(litigators);
  fireEvent.click(vendor);
  fireEvent.click(screen.getByRole('button', { name: 'Save lists' }));
  expect(onSave).toHaveBeenCalledWith(['vendor-x']);
});
