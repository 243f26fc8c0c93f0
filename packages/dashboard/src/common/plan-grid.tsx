import { Alert, Center, Loader, SimpleGrid } from '@mantine/core';
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
  if (plans.isPending) {
    return (
      <Center py="md">
        <Loader aria-label="Loading plans" />
      </Center>
    );
  }
  if (plans.isError) return <Alert color="red">{errorMessage(plans.error)}</Alert>;
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
