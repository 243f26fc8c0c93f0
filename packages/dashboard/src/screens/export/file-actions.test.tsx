import type { FileView } from '@scrub/sdk';
import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../../test/render';
import { FileActions } from './file-actions';

const NOTICE = 'No row is clean because no number was checked: no do-not-call list covering them was loaded.';

const file: FileView = {
  file_reference: 'ref_1',
  file_name: 'leads.csv',
  file_url: '/files/ref_1/result',
  last_updated: '2026-11-27T10:00:00.000Z',
  created_at: '2026-11-27T10:00:00.000Z',
  status: 'completed',
  total_records: 3,
  processed_rows: 3,
  duplicates: 0,
  credits_reversed: 0,
  credits_charged: 3,
  file_method: 'upload',
  uploaded_file: null,
  line_types: { mobile: 3 },
  dnc_status: { unchecked: 3 },
  file_message: null,
  error: null,
  part_url: null,
  dnc_notice: NOTICE,
};

const notice = () => screen.queryByTestId('clean-filter-notice');

test("the Clean filter on a file none of whose numbers was checked shows the service's reason", () => {
  renderScreen(<FileActions file={file} filter={{ dnc: '0' }} />);
  expect(notice()?.textContent).toBe(NOTICE);
  expect(screen.getByTestId('get-csv')).toBeTruthy();
});

test('other filters, or a file with checked numbers, show no such notice', () => {
  const { unmount } = renderScreen(<FileActions file={file} filter={{ dnc: '1' }} />);
  expect(notice()).toBeNull();
  unmount();
  const { dnc_notice: _, ...checked } = file;
  renderScreen(<FileActions file={checked} filter={{ dnc: '0' }} />);
  expect(notice()).toBeNull();
});

test('a calling-window filter on a file scrubbed without it offers no result link, and says why', () => {
  const { unmount } = renderScreen(
    <FileActions file={{ ...file, columns_evaluated_at: null }} filter={{ callableNow: '1' }} />,
  );
  expect(screen.queryByTestId('get-csv')).toBeNull();
  expect(screen.getByTestId('no-calling-window').textContent).toBe(
    'Scrubbed without the calling window: set Calling window to All to export it.',
  );
  unmount();
  renderScreen(
    <FileActions
      file={{ ...file, columns_evaluated_at: '2026-11-27T10:00:00.000Z' }}
      filter={{ callableNow: '1' }}
    />,
  );
  expect(screen.getByTestId('get-csv').getAttribute('href')).toBe('/files/ref_1/result?callable_now=1');
  expect(screen.queryByTestId('no-calling-window')).toBeNull();
});
