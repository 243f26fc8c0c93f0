import { ScrollArea, Table, Text } from '@mantine/core';
import type { CsvPreview } from '../csv/preview';

/** The headers and the first 10 records, as read from the head of the file. */
export function PreviewTable({ preview }: { preview: CsvPreview }) {
  return (
    <ScrollArea type="auto">
      <Table striped withTableBorder withColumnBorders data-testid="preview-table">
        <Table.Caption>
          <Text size="sm" c="dimmed" component="span">
            The first {preview.rows.length} records of the file
          </Text>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {preview.headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.rows.map((row, rowIndex) => (
            // Rows have no identity of their own; their position is stable for a given preview.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Table.Tr key={rowIndex}>
              {preview.headers.map((header, column) => (
                <Table.Td key={header}>{row[column] ?? ''}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
