import { Alert, Anchor, Badge, Button, Group, Paper, Text, Title } from '@mantine/core';
import type { UserInfo } from '@scrub/sdk';
import { Link } from 'react-router';
import { formatCredits, isUnlimited } from '../../credits/format-credits';
import { useCredits } from '../../data/account';
import { openPlanStatusModal } from '../../payments/account-status';

/** When an unlimited pass ends (or ended), in the browser's time zone: `Unlimited until Nov 28, 2026, 2:05 PM`. */
export function passEnd(endsAt: string, now = new Date()): string {
  const at = new Date(endsAt);
  const shown = at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  return at > now ? `Unlimited until ${shown}` : `Ended ${shown}`;
}

/** Plan & Credits, and the activate/pause section (`/accountInfo?scrollTo=activate` lands here). */
export function PlanCreditsCard({ user }: { user: UserInfo }) {
  // The header's polled balance, so both always agree.
  const credits = useCredits().data ?? user;
  const paused = user.user_plan_status === 'paused';
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
          {user.plan_ends_at && (
            <Text size="sm" data-testid="plan-ends">
              {passEnd(user.plan_ends_at)}
            </Text>
          )}
        </div>
        <div>
          <Text size="sm" c="dimmed">
            Plan status
          </Text>
          <Badge color={paused ? 'gray.8' : 'teal.9'} data-testid="plan-status">
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
      {paused && (
        <Alert color="yellow" mt="md" role="status">
          Your account is paused: please activate your account first to buy credits or check numbers.
        </Alert>
      )}
      <Group mt="md">
        {!isUnlimited(credits) && (
          <Anchor component={Link} to="/purchase">
            Add Credits
          </Anchor>
        )}
        <Button
          variant={paused ? 'filled' : 'default'}
          onClick={() => void openPlanStatusModal(user.user_plan_status)}
        >
          {paused ? 'Activate account' : 'Pause account'}
        </Button>
      </Group>
    </Paper>
  );
}
