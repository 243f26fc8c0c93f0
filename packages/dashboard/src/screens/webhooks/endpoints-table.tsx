import { Button, Group, Table } from '@mantine/core';
import type { WebhookEndpoint } from '@scrub/sdk';
import { DataTable } from '../../common/data-table';

/** The account's endpoints, each with its actions: deliveries, send a test, rotate the secret, delete. */
export function EndpointsTable({
  endpoints,
  testing,
  onShow,
  onTest,
  onRotate,
  onRemove,
}: {
  endpoints: WebhookEndpoint[];
  /** The endpoint a test event is being sent to. */
  testing: string | undefined;
  onShow(endpointId: string): void;
  onTest(endpoint: WebhookEndpoint): void;
  onRotate(endpoint: WebhookEndpoint): void;
  onRemove(endpoint: WebhookEndpoint): void;
}) {
  return (
    <DataTable testId="webhook-endpoints" headers={['URL', 'Events', 'Description', '']}>
      {endpoints.map((endpoint) => (
        <Table.Tr key={endpoint.id}>
          <Table.Td style={{ wordBreak: 'break-all' }}>{endpoint.url}</Table.Td>
          <Table.Td>{endpoint.events.join(', ')}</Table.Td>
          <Table.Td>{endpoint.description}</Table.Td>
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                variant="light"
                onClick={() => onShow(endpoint.id)}
                aria-label={`Deliveries to ${endpoint.url}`}
              >
                Deliveries
              </Button>
              <Button
                size="xs"
                variant="default"
                loading={testing === endpoint.id}
                onClick={() => onTest(endpoint)}
                aria-label={`Send test event to ${endpoint.url}`}
              >
                Send test
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => onRotate(endpoint)}
                aria-label={`Rotate secret of ${endpoint.url}`}
              >
                Rotate secret
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => onRemove(endpoint)}
                aria-label={`Delete ${endpoint.url}`}
              >
                Delete
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
