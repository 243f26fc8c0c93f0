import { Card, SimpleGrid, Table, Text } from '@mantine/core';
import type { UsageAccount, UsageFigures } from '@scrub/sdk';

const count = (n: number) => n.toLocaleString('en-US');
const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)}%`);

/** The range's totals, one figure a card. */
export function UsageStats({ figures }: { figures: UsageFigures }) {
  const stats: [string, string, string][] = [
    ['Checks', count(figures.checks.total), 'stat-checks'],
    ['DNC hit rate', percent(figures.dnc.hit_rate), 'stat-dnc'],
    ['Credits spent', count(figures.credits.spent), 'stat-spent'],
    ['Credits bought', count(figures.credits.bought), 'stat-bought'],
    ['Jobs', count(figures.jobs), 'stat-jobs'],
    ['Cached answers', count(figures.cached), 'stat-cached'],
    ['Free answers', count(figures.free), 'stat-free'],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }}>
      {stats.map(([label, value, testId]) => (
        <Card key={label} withBorder padding="sm">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="xl" data-testid={testId}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** An Agency's accounts, each with its figures for the range, and the total. */
export function AccountsTable({ accounts, total }: { accounts: UsageAccount[]; total: UsageFigures }) {
  const row = (key: string, name: string, figures: UsageFigures) => (
    <Table.Tr key={key}>
      <Table.Td>{name}</Table.Td>
      <Table.Td>{count(figures.checks.total)}</Table.Td>
      <Table.Td>{percent(figures.dnc.hit_rate)}</Table.Td>
      <Table.Td>{count(figures.credits.spent)}</Table.Td>
      <Table.Td>{count(figures.credits.bought)}</Table.Td>
      <Table.Td>{count(figures.jobs)}</Table.Td>
    </Table.Tr>
  );
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped withTableBorder data-testid="accounts-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th>Checks</Table.Th>
            <Table.Th>DNC hit rate</Table.Th>
            <Table.Th>Credits spent</Table.Th>
            <Table.Th>Credits bought</Table.Th>
            <Table.Th>Jobs</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accounts.map((account) => row(account.id, account.name || account.email, account.figures))}
          {row('total', 'Total', total)}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
