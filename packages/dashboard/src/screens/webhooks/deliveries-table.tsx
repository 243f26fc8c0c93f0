import { Badge, Stack, Table, Text } from '@mantine/core';
import type { WebhookAttempt, WebhookDelivery } from '@scrub/sdk';
import { DataTable } from '../../common/data-table';

const STATUS_COLOR = { delivered: 'teal.9', pending: 'yellow.9', failed: 'red.9' } as const;

const when = (iso: string) => new Date(iso).toLocaleString('en-US');

/** What one attempt came to, in a few words: the receiver's status, or why there was none. */
export function attemptAnswer(
  attempt: Pick<WebhookAttempt, 'status_code' | 'response_ms' | 'error'>,
): string {
  const ms = attempt.response_ms === null ? '' : ` in ${attempt.response_ms} ms`;
  if (attempt.error) return `${attempt.error}${ms}`;
  return `answered ${attempt.status_code}${ms}`;
}

/** An endpoint's deliveries, newest first: event, status, and every attempt with its answer. */
export function DeliveriesTable({ deliveries }: { deliveries: WebhookDelivery[] }) {
  return (
    <DataTable testId="webhook-deliveries" headers={['Event', 'Status', 'Attempts', 'Created']}>
      {deliveries.map((delivery) => (
        <Table.Tr key={delivery.id}>
          <Table.Td>
            <Text size="sm" fw={600}>
              {delivery.type}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {delivery.event_id}
            </Text>
          </Table.Td>
          <Table.Td>
            <Badge color={STATUS_COLOR[delivery.status]}>{delivery.status}</Badge>
            {delivery.next_retry_at && (
              <Text size="xs" c="dimmed">
                next try {when(delivery.next_retry_at)}
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            {delivery.log.length === 0 ? (
              <Text size="sm">not tried yet</Text>
            ) : (
              <Stack gap={2}>
                {delivery.log.map((attempt) => (
                  <Text size="sm" key={attempt.attempt}>
                    #{attempt.attempt} {when(attempt.attempted_at)}: {attemptAnswer(attempt)}
                  </Text>
                ))}
              </Stack>
            )}
          </Table.Td>
          <Table.Td>{when(delivery.created_at)}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
