import type { CheckLogEntry } from '@scrub/sdk';
import { fireEvent, screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { ChecksTable } from './checks-table';
import { filterParams, LogFilterFields, NO_FILTERS } from './log-filters';
import { ResultRowsTable } from './result-rows-table';

const check = (over: Partial<CheckLogEntry>): CheckLogEntry => ({
  id: '1',
  checked_at: '2026-11-27T10:00:00.000Z',
  input: '2015550123',
  phone_number: '+12015550123',
  line_type: 'mobile',
  dnc: 1,
  cached: false,
  credits: 1,
  kind: 'single',
  source: 'api_key',
  api_key_id: 'key-1',
  acting_admin_id: null,
  answer: {},
  ...over,
});

test('shows each check: number, line type, DNC, credits, how it came in', () => {
  renderScreen(
    <ChecksTable
      checks={[
        check({}),
        check({
          id: '2',
          input: 'abc',
          phone_number: 'abc',
          line_type: 'invalid',
          dnc: null,
          credits: 0,
          kind: 'batch',
        }),
        check({ id: '3', dnc: 0, cached: true, credits: 0, source: 'act_as', kind: 'test' }),
      ]}
    />,
  );
  const rows = within(screen.getByTestId('checks-table')).getAllByRole('row').slice(1);
  const cells = rows.map((row) =>
    within(row)
      .getAllByRole('cell')
      .slice(1)
      .map((cell) => cell.textContent),
  );
  expect(cells).toEqual([
    ['+12015550123', 'mobile', 'DNC', '1', 'API key', 'Single check'],
    ['abc', 'invalid', 'Unchecked', '0', 'API key', 'Batch'],
    ['+12015550123', 'mobile', 'Clean', '0 (cached)', 'Admin acting', 'API page test'],
  ]);
});

test('the filters become the service’s query; untouched ones are left out', () => {
  expect(filterParams(NO_FILTERS)).toEqual({
    number: undefined,
    line_type: undefined,
    dnc: undefined,
    from: undefined,
    to: undefined,
    source: undefined,
  });
  const onChange = vi.fn();
  renderScreen(<LogFilterFields filters={NO_FILTERS} onChange={onChange} />);
  fireEvent.change(screen.getByLabelText('Number'), { target: { value: ' 201555 ' } });
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
  const typed = onChange.mock.calls[0]?.[0];
  const dated = onChange.mock.calls[1]?.[0];
  expect(filterParams(typed)).toMatchObject({ number: '201555' });
  expect(filterParams(dated)).toMatchObject({ from: '2026-11-01' });
});

test('a bulk result’s rows: the number, its answer and the mapped name and e-mail, a dash for an invalid number’s DNC', () => {
  renderScreen(
    <ResultRowsTable
      page={{
        file_reference: 'ref',
        columns: ['Name', 'Email', 'Phone', 'Line Type', 'DNC'],
        phone_column: 2,
        line_type_column: 3,
        dnc_column: 4,
        mapped: { email: 1, full_name: 0 },
        rows: [
          { row: 1, cells: ['Ann Lee', 'ann@example.com', '2012345678', 'mobile', '1'] },
          { row: 2, cells: ['Cy', 'cy@example.com', '123', 'invalid', ''] },
        ],
        page: 1,
        per_page: 50,
        total_pages: 1,
        total_rows: 2,
      }}
    />,
  );
  const table = screen.getByTestId('result-rows-table');
  const head = within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);
  expect(head).toEqual(['Row', 'Number', 'Line type', 'DNC', 'Name', 'E-mail']);
  const cells = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
  expect(cells).toEqual([
    ['1', '2012345678', 'mobile', 'DNC', 'Ann Lee', 'ann@example.com'],
    ['2', '123', 'invalid', '—', 'Cy', 'cy@example.com'],
  ]);
});
