import { Paper, Table, Text, Title } from '@mantine/core';

const labels: Record<string, string> = {
  clean: 'Clean',
  dnc: 'DNC',
  unchecked: 'Unchecked (no DNC list covers them)',
  mobile: 'Mobile',
  landline: 'Landline',
  voip: 'VoIP',
  toll_free: 'Toll free',
  invalid: 'Invalid',
  unknown_geographic: 'Unknown (geographic)',
};

/** A job's counts by line type or by DNC status. */
export function CountList({ title, counts }: { title: string; counts: Record<string, number> }) {
  const entries = Object.entries(counts);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet
        </Text>
      ) : (
        <Table>
          <Table.Tbody>
            {entries.map(([key, count]) => (
              <Table.Tr key={key}>
                <Table.Td>{labels[key] ?? key}</Table.Td>
                <Table.Td ta="right">{count.toLocaleString('en-US')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
