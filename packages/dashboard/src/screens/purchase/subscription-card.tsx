import { Alert, Badge, Button, Group, Paper, Text, Title } from '@mantine/core';
import type { Plan } from '@scrub/sdk';
import { errorMessage } from '../../api/error-message';
import { cancelSubscription, useSubscription } from '../../data/subscriptions';
import { openPlanStatusModal } from '../../payments/account-status';
import { confirmAction } from '../../payments/confirm-action';
import { refreshAfterPayment } from '../../payments/purchase-complete';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

const statusColor = { active: 'teal.9', paused: 'gray.8', past_due: 'red.9', canceled: 'dark.6' } as const;

/** The monthly plan: status, next renewal, pause/resume (Account Confirmation) and cancel at period end. */
export function SubscriptionCard({ plans }: { plans: Plan[] }) {
  const subscription = useSubscription();
  if (subscription.isError) return <Alert color="red">{errorMessage(subscription.error)}</Alert>;
  const sub = subscription.data;
  if (!sub || sub.status === 'canceled') return null;
  const name =
    plans.find((plan) => plan.plan_reference === sub.plan_reference)?.plan_name ?? sub.plan_reference;
  const cancel = () =>
    confirmAction({
      title: 'Cancel subscription',
      message: `Cancel ${name}? It stays active until ${day(sub.current_period_end)} and does not renew.`,
      confirmLabel: 'Cancel at period end',
      action: async () => {
        await cancelSubscription();
        refreshAfterPayment();
      },
    });
  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      aria-labelledby="subscription-title"
      data-testid="subscription"
    >
      <Title order={2} size="h4" id="subscription-title">
        Your subscription
      </Title>
      <Group mt="sm" gap="xl">
        <Text fw={600}>{name}</Text>
        <Badge color={statusColor[sub.status]}>{sub.status.replace('_', ' ')}</Badge>
        <Text size="sm">
          {sub.cancel_at_period_end ? 'Ends on ' : 'Renews on '}
          {day(sub.current_period_end)}
        </Text>
      </Group>
      <Group mt="md">
        {(sub.status === 'active' || sub.status === 'paused') && (
          <Button
            variant="default"
            onClick={() => openPlanStatusModal(sub.status === 'paused' ? 'paused' : 'active')}
          >
            {sub.status === 'paused' ? 'Resume subscription' : 'Pause subscription'}
          </Button>
        )}
        {!sub.cancel_at_period_end && (
          <Button variant="default" color="red" onClick={cancel}>
            Cancel subscription
          </Button>
        )}
      </Group>
    </Paper>
  );
}
