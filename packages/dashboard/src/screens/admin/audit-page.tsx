import { Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../common/data-table';
import { BackButton, PageHeader } from '../../common/page-header';
import { useAuditLog } from '../../data/admin';
import { Pager } from '../../shell/pager';

/** The audit log, newest first, read-only (Super Admin): who did what to whom, and through what. */
export default function AuditPage() {
  const [page, setPage] = useState(1);
  const audit = useAuditLog(page);
  const entries = audit.data?.entries ?? [];
  return (
    <Stack maw={1100}>
      <PageHeader title="Audit log">
        <BackButton to="/admin">Back to Admin</BackButton>
      </PageHeader>
      <DataTable testId="audit-table" headers={['When', 'Who', 'Action', 'Account', 'Detail']}>
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
                    ([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
                  )
                  .join(', ')}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      {audit.isPending && <Text c="dimmed">Loading…</Text>}
      <Pager page={page} totalPages={audit.data?.totalPages ?? 1} onPage={setPage} justify="flex-start" />
    </Stack>
  );
}
