import { Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../common/data-table';
import { BackButton, PageHeader } from '../../common/page-header';
import { useAuditLog } from '../../data/admin';
import { Pager } from '../../shell/pager';

const detailText = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');

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
      <DataTable
        testId="audit-table"
        headers={['When', 'Who', 'Action', 'Account', 'Detail']}
        wideOnly={[1, 3, 4]}
      >
        {entries.map((entry) => (
          <Table.Tr key={entry.id}>
            <Table.Td>{new Date(entry.at).toLocaleString()}</Table.Td>
            <Table.Td visibleFrom="sm">{entry.actor_email}</Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>
              {entry.action}
              {/* On a phone the hidden columns go under the action. */}
              <Text hiddenFrom="sm" size="xs" c="dimmed">
                {entry.actor_email}
                {entry.subject_email ? ` → ${entry.subject_email}` : ''}
              </Text>
              <Text hiddenFrom="sm" size="xs" ff="monospace">
                {detailText(entry.detail)}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">{entry.subject_email ?? ''}</Table.Td>
            <Table.Td visibleFrom="sm">
              <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {detailText(entry.detail)}
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
