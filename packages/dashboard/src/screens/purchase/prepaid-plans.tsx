import { Badge, Button, Group, Radio, SimpleGrid, Text } from '@mantine/core';
import type { Plan } from '@scrub/sdk';
import { useState } from 'react';
import { PlansPending } from '../../common/plan-grid';
import { usePlans } from '../../data/plans';
import { dollars } from '../../payments/format';

function summary(plan: Plan): string {
  if (plan.variable) {
    return `${plan.amount_options.map((option) => dollars(option.amount)).join(', ')}: ${plan.plan_credits_text}`;
  }
  return `${dollars(plan.plan_amount)}: ${plan.plan_credits_text}`;
}

/** Bulk Credit Purchase: pick a prepaid plan, then Add Credits (disabled until one is picked). */
export function PrepaidPlans({ onBuy, busy }: { onBuy: (plan: Plan) => void; busy: boolean }) {
  const plans = usePlans();
  const [picked, setPicked] = useState<string | null>(null);
  if (!plans.data) return <PlansPending plans={plans} />;
  const prepaid = plans.data.filter((plan) => plan.plan_type === 'prepaid');
  const chosen = prepaid.find((plan) => plan.plan_reference === picked);
  return (
    <>
      <Radio.Group value={picked} onChange={setPicked} name="prepaid-plan" aria-label="Bulk credit plans">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {prepaid.map((plan) => (
            <Radio.Card key={plan.plan_reference} value={plan.plan_reference} p="md" radius="md">
              <Group wrap="nowrap" align="flex-start">
                <Radio.Indicator />
                <div>
                  <Text fw={700}>{plan.plan_name}</Text>
                  <Text size="sm">{summary(plan)}</Text>
                  <Group gap={4} mt={4}>
                    {plan.percent_off > 0 && (
                      <Badge color="teal.9">
                        up to {Math.max(...plan.amount_options.map((o) => o.percent_off))}% off
                      </Badge>
                    )}
                    {plan.unlimited && <Badge color="grape.9">Unlimited</Badge>}
                  </Group>
                </div>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>
      <Group mt="md">
        <Button disabled={!chosen} loading={busy} onClick={() => chosen && onBuy(chosen)}>
          Add Credits
        </Button>
      </Group>
    </>
  );
}
