import { ScrollArea, Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A striped, bordered table that scrolls sideways on a narrow screen; `children` are its rows. */
export function DataTable({
  testId,
  headers,
  children,
}: {
  testId: string;
  headers: ReactNode[];
  children: ReactNode;
}) {
  return (
    <ScrollArea type="auto">
      <Table striped withTableBorder data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the headers are fixed, in a fixed order
              <Table.Th key={index}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
