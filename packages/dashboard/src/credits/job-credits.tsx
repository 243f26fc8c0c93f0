import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { GIVE_BACK_LABELS, type GiveBackReason } from '@scrub/contract';
import type { JobCredits } from '@scrub/sdk';

const n = (value: number) => value.toLocaleString('en-US');

/** The reasons credits were given back for, in the order the ledger gives them, without the zeros. */
function givenBack(credits: JobCredits): [GiveBackReason, number][] {
  return (Object.entries(credits.given_back) as [GiveBackReason, number][]).filter(([, value]) => value > 0);
}

/**
 * A job's credits in a table cell or a card: charged, each give-back by reason, and the net (what
 * the balance fell by). The ledger's own figures.
 */
export function JobCreditsLines({ credits }: { credits: JobCredits }) {
  return (
    <Stack gap={0} data-testid="job-credits">
      <Text size="sm">{n(credits.charged)} charged</Text>
      {givenBack(credits).map(([reason, value]) => (
        <Text key={reason} size="xs" c="dimmed">
          −{n(value)} {GIVE_BACK_LABELS[reason].toLowerCase()}
        </Text>
      ))}
      <Text size="sm" fw={600}>
        Net {n(credits.net)}
      </Text>
    </Stack>
  );
}

/** File detail's credit breakdown: what the job was charged, given back and why, and the net. */
export function JobCreditsCard({ credits }: { credits: JobCredits }) {
  const rows: [string, string][] = [
    ['Credits charged', n(credits.charged)],
    ...givenBack(credits).map(([reason, value]): [string, string] => [
      `Given back: ${GIVE_BACK_LABELS[reason].toLowerCase()}`,
      `−${n(value)}`,
    ]),
    ['Net credits (your balance’s change)', n(credits.net)],
  ];
  return (
    <Paper withBorder p="md" data-testid="job-credits-card">
      <Title order={2} size="h5" mb="xs">
        Credits
      </Title>
      <Table>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Td>{label}</Table.Td>
              <Table.Td ta="right">{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="xs">
        Duplicate numbers in one file are charged once. When a bulk job fails, its credits are returned to
        your balance automatically.
      </Text>
    </Paper>
  );
}
