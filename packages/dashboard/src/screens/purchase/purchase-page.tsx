import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PlanGrid, SelectPlanButton } from '../../common/plan-grid';
import { formatCredits } from '../../credits/format-credits';
import { useCredits } from '../../data/account';
import { usePlans } from '../../data/plans';
import { useBuyFlow } from '../../payments/use-buy-flow';
import { PrepaidPlans } from './prepaid-plans';
import { PurchaseHistory } from './purchase-history';
import { SubscriptionCard } from './subscription-card';

/** Purchase Credits: bulk credits, the monthly plans, the subscription and the purchase history. */
export default function PurchasePage() {
  const credits = useCredits();
  const plans = usePlans();
  const { start, busy } = useBuyFlow();
  const [params, setParams] = useSearchParams();
  const current = credits.data?.user_plan.plan_reference ?? null;

  // ?plan=<reference> preselects the plan and opens the buy flow at once (the card page comes back here).
  const opened = useRef(false);
  useEffect(() => {
    const reference = params.get('plan');
    const plan = plans.data?.find((p) => p.plan_reference === reference);
    if (!plan || opened.current) return;
    opened.current = true;
    const amount = Number(params.get('amount')) || undefined;
    setParams({}, { replace: true });
    void start(plan, amount);
  }, [params, plans.data, start, setParams]);

  return (
    <Stack maw={1100} gap="lg">
      <Title order={1}>Purchase Credits</Title>
      <Paper withBorder p="md">
        <Group justify="space-between">
          <Text>
            Current credit balance:{' '}
            <Text span fw={700} data-testid="purchase-balance">
              {credits.data ? formatCredits(credits.data) : '...'}
            </Text>
          </Text>
          <Anchor component={Link} to="/card">
            Update card information
          </Anchor>
        </Group>
      </Paper>
      <Stack gap="xs">
        <Title order={2}>Bulk Credit Purchase</Title>
        <Text size="sm">
          One credit checks one phone number. The minimum purchase is $5, roughly 2,850 credits.
        </Text>
        <PrepaidPlans onBuy={(plan) => void start(plan)} busy={busy !== null} />
      </Stack>
      <SubscriptionCard plans={plans.data ?? []} />
      <Stack gap="xs">
        <Title order={2}>Monthly plans</Title>
        <Text size="sm">Monthly plans: credits every month, renewed until you cancel.</Text>
        <PlanGrid
          types={['postpaid']}
          currentReference={current}
          action={(plan, isCurrent) => (
            <SelectPlanButton
              plan={plan}
              current={isCurrent}
              busy={busy}
              onSelect={(chosen) => void start(chosen)}
            />
          )}
        />
      </Stack>
      <PurchaseHistory />
    </Stack>
  );
}
