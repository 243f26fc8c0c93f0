import { Alert, Button, Center, Group, Loader, Paper, Select, Table, Text, Title } from '@mantine/core';
import { GIVE_BACK_LABELS } from '@scrub/contract';
import type { CreditHistoryEntry } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { saveBlob } from '../../common/save-blob';
import { useCreditHistory, useExportCreditHistory } from '../../data/credit-history';
import { Pager } from '../../shell/pager';

const PAGE_SIZE = 20;
const ALL = 'all';

/** The last 24 months, newest first, as `YYYY-MM` and `November 2026` (UTC, as the service counts them). */
function recentMonths(now = new Date()): { value: string; label: string }[] {
  return Array.from({ length: 24 }, (_, back) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return {
      value: month.toISOString().slice(0, 7),
      label: month.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    };
  });
}

/** What an entry was: a give-back says why; an auto top-up's note says what was bought. */
function entryText(entry: CreditHistoryEntry): string {
  if (entry.reason) return `${entry.label}: ${GIVE_BACK_LABELS[entry.reason].toLowerCase()}`;
  return entry.label;
}

function HistoryTable({ entries }: { entries: CreditHistoryEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder data-testid="credit-history-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>Entry</Table.Th>
            <Table.Th ta="right">Credits</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th>Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-testid="credit-history-row">
              <Table.Td>{new Date(entry.created_at).toLocaleString()}</Table.Td>
              <Table.Td>{entryText(entry)}</Table.Td>
              <Table.Td ta="right">
                {entry.delta > 0 ? '+' : '−'}
                {Math.abs(entry.delta).toLocaleString('en-US')}
              </Table.Td>
              <Table.Td ta="right">{entry.balance_after.toLocaleString('en-US')}</Table.Td>
              <Table.Td>
                <Text size="xs" style={{ wordBreak: 'break-word' }}>
                  {[entry.note, entry.reference].filter(Boolean).join(' · ')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The credit history: every ledger entry (purchase, check, bulk job, give-back, refund, admin
 * adjustment, auto top-up) with the balance it left, newest first, by month, with a CSV download.
 * An admin or agency acting as the account sees the account's own (it is read only).
 */
export function CreditHistoryCard() {
  const [month, setMonth] = useState<string>(ALL);
  const [page, setPage] = useState(1);
  const filter = month === ALL ? {} : { month };
  const history = useCreditHistory({ ...filter, page, limit: PAGE_SIZE });
  const exporting = useExportCreditHistory({
    onSuccess: (blob) => saveBlob(blob, month === ALL ? 'credit-history.csv' : `credit-history-${month}.csv`),
  });
  const failed = history.error ?? exporting.error;
  const list = history.data;

  return (
    <Paper withBorder p="lg" data-testid="credit-history">
      <Title order={2} size="h4">
        Credit history
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every change to your credits, with the balance it left. Duplicate numbers in one file are charged
        once.
      </Text>
      {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      <Group align="end" mb="sm">
        <Select
          label="Month"
          data={[{ value: ALL, label: 'All months' }, ...recentMonths()]}
          value={month}
          allowDeselect={false}
          onChange={(value) => {
            setMonth(value ?? ALL);
            setPage(1);
          }}
          w={200}
        />
        <Button variant="default" onClick={() => exporting.mutate(filter)} loading={exporting.isPending}>
          Download CSV
        </Button>
        {list && (
          <Text size="sm" data-testid="credit-history-total">
            {`${list.total.toLocaleString('en-US')} ${list.total === 1 ? 'entry' : 'entries'}`}
          </Text>
        )}
      </Group>
      {history.isPending && (
        <Center py="md">
          <Loader aria-label="Loading credit history" />
        </Center>
      )}
      {list && list.entries.length === 0 && (
        <Alert color="blue" variant="light">
          No credit changes {month === ALL ? 'yet' : 'in this month'}.
        </Alert>
      )}
      {list && list.entries.length > 0 && <HistoryTable entries={list.entries} />}
      {list && list.total_pages > 1 && <Pager page={page} totalPages={list.total_pages} onPage={setPage} />}
    </Paper>
  );
}
