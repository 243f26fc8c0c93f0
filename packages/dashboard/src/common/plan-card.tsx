import { Badge, Card, Group, List, Text, Title } from '@mantine/core';
import type { Plan } from '@scrub/sdk';
import type { ReactNode } from 'react';
import { dollars } from '../payments/format';

/** One plan: price, credits (or unlimited), amounts of the flexible plans, discount; `action` is its button. */
export function PlanCard({ plan, current, action }: { plan: Plan; current: boolean; action?: ReactNode }) {
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
      <Group gap="xs" mt="sm">
        {plan.percent_off > 0 && <Badge color="teal.9">{plan.percent_off}% off</Badge>}
        {plan.unlimited && <Badge color="grape.9">Unlimited</Badge>}
        {current && !action && <Badge color="blue.9">Current Plan</Badge>}
      </Group>
      {action && <Card.Section p="md">{action}</Card.Section>}
    </Card>
  );
}
