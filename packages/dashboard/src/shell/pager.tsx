import { Button, Group, Text } from '@mantine/core';

/** Previous and Next around "Page N of M", as Export, Suppression list and the audit log page. */
export function Pager({
  page,
  totalPages,
  onPage,
  justify = 'center',
}: {
  page: number;
  totalPages: number;
  onPage(page: number): void;
  justify?: 'center' | 'flex-start';
}) {
  return (
    <Group justify={justify}>
      <Button variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Text size="sm">
        Page {page} of {totalPages}
      </Text>
      <Button variant="default" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </Group>
  );
}
