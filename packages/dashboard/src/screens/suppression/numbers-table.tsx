import { Button, Table, VisuallyHidden } from '@mantine/core';
import type { DncEntry } from '@scrub/sdk';

/** A page of the list's numbers, each with its Remove button. */
export function NumbersTable({ numbers, onRemove }: { numbers: DncEntry[]; onRemove(number: string): void }) {
  return (
    <Table striped withTableBorder data-testid="dnc-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Number</Table.Th>
          <Table.Th>Added</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {numbers.map((entry) => (
          <Table.Tr key={entry.phone_number}>
            <Table.Td>{entry.phone_number}</Table.Td>
            <Table.Td>{new Date(entry.added_at).toLocaleString()}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                aria-label={`Remove ${entry.phone_number}`}
                onClick={() => onRemove(entry.phone_number)}
              >
                Remove
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
