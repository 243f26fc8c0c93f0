import { Badge, Table } from '@mantine/core';
import type { MappableField, ResultRow, ResultRowsPage } from '@scrub/sdk';

/** The mapped fields shown beside the number, in this order, and their headings. */
const SHOWN: readonly [MappableField, string][] = [
  ['full_name', 'Name'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['business_name', 'Business'],
  ['email', 'E-mail'],
];

function DncCell({ value }: { value: string }) {
  if (value === '1') return <Badge color="red">DNC</Badge>;
  if (value === '0') return <Badge color="green">Clean</Badge>;
  // An invalid number is not checked against any list: its cell is empty.
  if (value === '') return '—';
  return <Badge color="gray">{value === 'unchecked' ? 'Unchecked' : value}</Badge>;
}

/** A page of a bulk result: each row's place in the file, its number and answer, and its mapped name and e-mail. */
export function ResultRowsTable({ page }: { page: ResultRowsPage }) {
  const shown = SHOWN.filter(([field]) => page.mapped[field] !== undefined);
  const cell = (row: ResultRow, column: number | null | undefined) =>
    column === null || column === undefined ? '' : (row.cells[column] ?? '');
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped withTableBorder data-testid="result-rows-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Number</Table.Th>
            <Table.Th>Line type</Table.Th>
            <Table.Th>DNC</Table.Th>
            {shown.map(([field, heading]) => (
              <Table.Th key={field}>{heading}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page.rows.map((row) => (
            <Table.Tr key={row.row}>
              <Table.Td>{row.row.toLocaleString('en-US')}</Table.Td>
              <Table.Td>{cell(row, page.phone_column)}</Table.Td>
              <Table.Td>{cell(row, page.line_type_column)}</Table.Td>
              <Table.Td>
                <DncCell value={cell(row, page.dnc_column)} />
              </Table.Td>
              {shown.map(([field]) => (
                <Table.Td key={field}>{cell(row, page.mapped[field])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
