import { Alert, Button, Center, Loader, SimpleGrid } from '@mantine/core';
import type { Plan } from '@scrub/sdk';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/error-message';
import { usePlans } from '../data/plans';
import { PlanCard } from './plan-card';

/** The catalogue's plans of one kind, as cards. */
export function PlanGrid({
  types,
  currentReference,
  action,
}: {
  types: Plan['plan_type'][];
  currentReference?: string | null;
  /** The plan's button (Select Plan / Current Plan), where plans can be bought. */
  action?: (plan: Plan, current: boolean) => ReactNode;
}) {
  const plans = usePlans();
  if (!plans.data) return <PlansPending plans={plans} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
      {plans.data
        .filter((plan) => types.includes(plan.plan_type))
        .map((plan) => (
          <PlanCard
            key={plan.plan_reference}
            plan={plan}
            current={plan.plan_reference === currentReference}
            action={action?.(plan, plan.plan_reference === currentReference)}
          />
        ))}
    </SimpleGrid>
  );
}

/** A plan card's button where plans are bought: Select Plan, or Current Plan (disabled) on the plan the account has. */
export function SelectPlanButton({
  plan,
  current,
  busy,
  onSelect,
}: {
  plan: Plan;
  current: boolean;
  /** The plan whose purchase is under way, if any. */
  busy: string | null;
  onSelect(plan: Plan): void;
}) {
  return (
    <Button
      fullWidth
      disabled={current}
      loading={busy === plan.plan_reference}
      onClick={() => onSelect(plan)}
    >
      {current ? 'Current Plan' : 'Select Plan'}
    </Button>
  );
}

/** While the catalogue loads, a loader; if it cannot be read, why. */
export function PlansPending({ plans }: { plans: { isPending: boolean; error: Error | null } }) {
  if (plans.isPending) {
    return (
      <Center py="md">
        <Loader aria-label="Loading plans" />
      </Center>
    );
  }
  return <Alert color="red">{errorMessage(plans.error)}</Alert>;
}
