import { Badge, Card, List, Text, Title } from '@mantine/core';
import type { Plan } from '@scrub/sdk';

const dollars = (amount: number) =>
  amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });

/** One plan, read-only: buying comes with the payment screens. */
export function PlanCard({ plan, current }: { plan: Plan; current: boolean }) {
  return (
    <Card withBorder padding="lg" data-testid="plan-card">
      <Title order={3} size="h4">
        {plan.plan_name}
      </Title>
      <Text c="dimmed" size="sm">
        {plan.plan_subtitle}
      </Text>
      <Text fw={800} size="xl" mt="sm">
        {plan.variable ? 'from ' : ''}
        {dollars(plan.plan_amount)}
        {plan.interval ? ` / ${plan.interval}` : ''}
      </Text>
      <Text size="sm">{plan.plan_credits_text}</Text>
      {plan.variable && (
        <List size="sm" mt="xs">
          {plan.amount_options.map((option) => (
            <List.Item key={option.amount}>
              {dollars(option.amount)}:{' '}
              {option.credits === null ? 'unlimited' : `${option.credits.toLocaleString('en-US')} credits`}
            </List.Item>
          ))}
        </List>
      )}
      {plan.percent_off > 0 && (
        <Badge mt="sm" color="teal.9">
          {plan.percent_off}% off
        </Badge>
      )}
      {current && (
        <Badge mt="sm" color="blue.9">
          Current Plan
        </Badge>
      )}
    </Card>
  );
}
