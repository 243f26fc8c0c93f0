import { Anchor, Badge, Group, Paper, Text, Title } from '@mantine/core';
import type { UserInfo } from '@scrub/sdk';
import { Link } from 'react-router';
import { formatCredits, isUnlimited } from '../../credits/format-credits';
import { useCredits } from '../../credits/use-credits';

/** Plan & Credits, read-only here: buying and pausing come with the payments screens. */
export function PlanCreditsCard({ user }: { user: UserInfo }) {
  // The header's polled balance, so both always agree.
  const credits = useCredits().data ?? user;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="plan-title" id="activate">
      <Title order={2} size="h4" id="plan-title">
        Plan & Credits
      </Title>
      <Group mt="sm" gap="xl">
        <div>
          <Text size="sm" c="dimmed">
            Current plan
          </Text>
          <Text fw={600}>{user.user_plan.plan_name || 'Pay as you go'}</Text>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            Plan status
          </Text>
          <Badge color={user.user_plan_status === 'active' ? 'teal.9' : 'orange.9'}>
            {user.user_plan_status}
          </Badge>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            Available credits
          </Text>
          <Text fw={600} data-testid="account-credits">
            {formatCredits(credits)}
          </Text>
        </div>
      </Group>
      {!isUnlimited(credits) && (
        <Anchor component={Link} to="/purchase" mt="md" display="inline-block">
          Add Credits
        </Anchor>
      )}
    </Paper>
  );
}
