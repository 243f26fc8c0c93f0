import { ScrollArea, Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A striped, bordered table; `children` are its rows. The columns named in `wideOnly` (by index) show
 * from 768 px only: their rows' cells take `visibleFrom="sm"` too, and a phone gets the table without
 * scrolling sideways.
 */
export function DataTable({
  testId,
  headers,
  wideOnly = [],
  children,
}: {
  testId: string;
  headers: ReactNode[];
  wideOnly?: number[];
  children: ReactNode;
}) {
  return (
    <ScrollArea type="auto">
      <Table striped withTableBorder data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the headers are fixed, in a fixed order
              <Table.Th key={index} visibleFrom={wideOnly.includes(index) ? 'sm' : undefined}>
                {header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
