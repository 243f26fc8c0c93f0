import { Button, Group, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuditLog } from '../../data/admin';
import { Pager } from '../../shell/pager';

/** The audit log, newest first, read-only (Super Admin): who did what to whom, and through what. */
export default function AuditPage() {
  const [page, setPage] = useState(1);
  const audit = useAuditLog(page);
  const entries = audit.data?.entries ?? [];
  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={1}>Audit log</Title>
        <Button component={Link} to="/admin" variant="default">
          Back to Admin
        </Button>
      </Group>
      <ScrollArea type="auto">
        <Table striped withTableBorder data-testid="audit-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th>Detail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{new Date(entry.at).toLocaleString()}</Table.Td>
                <Table.Td>{entry.actor_email}</Table.Td>
                <Table.Td>{entry.action}</Table.Td>
                <Table.Td>{entry.subject_email ?? ''}</Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {Object.entries(entry.detail)
                      .map(
                        ([key, value]) =>
                          `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
                      )
                      .join(', ')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {audit.isPending && <Text c="dimmed">Loading…</Text>}
      <Pager page={page} totalPages={audit.data?.totalPages ?? 1} onPage={setPage} justify="flex-start" />
    </Stack>
  );
}
