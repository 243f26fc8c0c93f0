import { Alert, Button, Group, Paper, Select, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { usePurchaseHistory } from '../../data/purchases';
import { dollars } from '../../payments/format';

/** Seed 2: the history shows 5 rows, Show More adds 5, and a new month starts again at 5. */
const PAGE = 5;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function PurchaseHistory() {
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [month, setMonth] = useState<number | null>(null);
  const [perPage, setPerPage] = useState(PAGE);
  const history = usePurchaseHistory({ year, month, perPage });
  const rows = history.data ?? [];

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="history-title">
      <Title order={2} size="h4" id="history-title">
        Purchase history
      </Title>
      <Group mt="sm">
        <Select
          label="Year"
          data={[0, 1, 2, 3, 4].map((back) => String(thisYear - back))}
          value={String(year)}
          onChange={(value) => {
            setYear(Number(value ?? thisYear));
            setPerPage(PAGE);
          }}
          allowDeselect={false}
          w={120}
        />
        <Select
          label="Month"
          data={[
            { value: '0', label: 'All months' },
            ...MONTHS.map((label, i) => ({ value: String(i + 1), label })),
          ]}
          value={String(month ?? 0)}
          onChange={(value) => {
            setMonth(Number(value) || null);
            setPerPage(PAGE);
          }}
          allowDeselect={false}
          w={150}
          data-testid="month-filter"
        />
      </Group>
      {history.isError && (
        <Alert color="red" mt="md">
          {errorMessage(history.error)}
        </Alert>
      )}
      {history.isSuccess && rows.length === 0 && (
        <Text mt="md" c="dimmed">
          No purchases in this period.
        </Text>
      )}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={420} mt="md">
          <Table data-testid="purchase-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Credits added</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.purchase_id}>
                  <Table.Td>{new Date(row.purchase_date).toLocaleDateString('en-US')}</Table.Td>
                  <Table.Td>{row.plan_name}</Table.Td>
                  <Table.Td>
                    {dollars(row.purchase_amount)}
                    {row.refunded_amount > 0 ? ` (refunded ${dollars(row.refunded_amount)})` : ''}
                  </Table.Td>
                  <Table.Td>{row.credits_added.toLocaleString('en-US')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {rows.length === perPage && perPage < 100 && (
        <Button
          variant="default"
          mt="md"
          onClick={() => setPerPage(perPage + PAGE)}
          loading={history.isFetching}
        >
          Show More
        </Button>
      )}
    </Paper>
  );
}
