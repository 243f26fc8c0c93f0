import { Alert, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { WebhookDelivery, WebhookEndpoint } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { PageHeader } from '../../common/page-header';
import {
  useAddWebhookEndpoint,
  useRemoveWebhookEndpoint,
  useRotateWebhookSecret,
  useTestWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from '../../data/webhooks';
import { notifySuccess } from '../../shell/notify';
import { Pager } from '../../shell/pager';
import { attemptAnswer, DeliveriesTable } from './deliveries-table';
import { EndpointForm } from './endpoint-form';
import { EndpointsTable } from './endpoints-table';
import { SecretAlert } from './secret-alert';

const DELIVERIES_PER_PAGE = 10;

/** What a test event came to, in one sentence. */
function testSentence(delivery: WebhookDelivery): string {
  if (delivery.status === 'delivered') return `Test event delivered: ${attemptAnswer(delivery)}.`;
  return `Test event not delivered: ${attemptAnswer(delivery)}. It is retried.`;
}

/** An endpoint's delivery log, a page at a time. */
function DeliveriesPanel({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpoint.id, page, DELIVERIES_PER_PAGE);
  const list = deliveries.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="deliveries-title">
      <Stack>
        <Title order={2} size="h4" id="deliveries-title">
          Deliveries to {endpoint.url}
        </Title>
        {deliveries.isPending && (
          <Center py="md">
            <Loader aria-label="Loading deliveries" />
          </Center>
        )}
        {deliveries.error && <Alert color="red">{errorMessage(deliveries.error)}</Alert>}
        {list && list.deliveries.length === 0 && (
          <Text>Nothing sent yet: events come when a bulk job ends, or send a test event.</Text>
        )}
        {list && list.deliveries.length > 0 && <DeliveriesTable deliveries={list.deliveries} />}
        {list && list.total_pages > 1 && <Pager page={page} totalPages={list.total_pages} onPage={setPage} />}
      </Stack>
    </Paper>
  );
}

/**
 * Webhook endpoints: Scrub POSTs `job.completed` and `job.failed` to them, signed. Add one (its
 * secret shown once), rotate its secret, send a test event, remove it, and read its delivery log.
 */
export default function WebhooksPage() {
  const endpoints = useWebhookEndpoints();
  const [secret, setSecret] = useState<{ value: string; previousUntil?: string | null } | null>(null);
  const [shownId, setShownId] = useState<string | null>(null);

  const add = useAddWebhookEndpoint({
    onSuccess: (endpoint) => {
      setSecret({ value: endpoint.secret });
      setShownId(endpoint.id);
      notifySuccess(`Endpoint added: ${endpoint.url}`);
    },
  });
  const rotate = useRotateWebhookSecret({
    onSuccess: (rotated) =>
      setSecret({ value: rotated.secret, previousUntil: rotated.previous_secret_expires_at }),
  });
  const test = useTestWebhookEndpoint({
    onSuccess: (delivery) =>
      delivery.status === 'delivered' ? notifySuccess(testSentence(delivery)) : undefined,
  });
  const remove = useRemoveWebhookEndpoint({
    onSuccess: (endpoint) => {
      if (shownId === endpoint.id) setShownId(null);
      notifySuccess(`Endpoint removed: ${endpoint.url}`);
    },
  });
  const failed = add.error ?? rotate.error ?? test.error ?? remove.error ?? endpoints.error;
  const undelivered = test.data && test.data.status !== 'delivered' ? test.data : null;

  const confirmRotate = (endpoint: WebhookEndpoint) =>
    modals.openConfirmModal({
      title: 'Rotate signing secret',
      children: (
        <Text>
          A new secret for {endpoint.url}. The old one keeps signing beside it for a day, so you can deploy
          the new one to your receiver without missing an event.
        </Text>
      ),
      labels: { confirm: 'Rotate', cancel: 'Cancel' },
      onConfirm: () => rotate.mutate(endpoint.id),
    });
  const confirmRemove = (endpoint: WebhookEndpoint) =>
    modals.openConfirmModal({
      title: 'Delete endpoint',
      children: <Text>Nothing more is sent to {endpoint.url}, and its delivery log goes with it.</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(endpoint.id),
    });

  const list = endpoints.data;
  const shown = list?.find((endpoint) => endpoint.id === shownId) ?? null;
  return (
    <Stack maw={1100}>
      <PageHeader title="Webhooks" />
      <Text c="dimmed">
        Scrub tells your systems when a bulk job ends: it POSTs a signed JSON event to each endpoint, and
        retries for a day until it is answered 2xx.
      </Text>
      {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      {undelivered && (
        <Alert color="yellow" data-testid="webhook-test-result">
          {testSentence(undelivered)}
        </Alert>
      )}
      {secret && (
        <SecretAlert
          secret={secret.value}
          previousUntil={secret.previousUntil}
          onDismiss={() => setSecret(null)}
        />
      )}
      <EndpointForm adding={add.isPending} onAdd={(input) => add.mutate(input)} />
      {endpoints.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading endpoints" />
        </Center>
      )}
      {list && list.length === 0 && (
        <Alert color="blue" variant="light">
          No endpoints yet.
        </Alert>
      )}
      {list && list.length > 0 && (
        <EndpointsTable
          endpoints={list}
          testing={test.isPending ? test.variables : undefined}
          onShow={setShownId}
          onTest={(endpoint) => {
            setShownId(endpoint.id);
            test.mutate(endpoint.id);
          }}
          onRotate={confirmRotate}
          onRemove={confirmRemove}
        />
      )}
      {shown && <DeliveriesPanel key={shown.id} endpoint={shown} />}
    </Stack>
  );
}
