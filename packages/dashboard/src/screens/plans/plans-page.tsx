import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { Plan } from '@scrub/sdk';
import { Link } from 'react-router';
import { useSession } from '../../auth/use-session';
import { faqAnswers } from '../../common/faq-answers';
import { HowItWorks } from '../../common/how-it-works';
import { PlanGrid, SelectPlanButton } from '../../common/plan-grid';
import { SearchableAnswers } from '../../common/searchable-answers';
import { useCredits } from '../../data/account';
import { useBuyFlow } from '../../payments/use-buy-flow';

/** Plans: each card's Select Plan runs the buy flow (a visitor goes to Sign-up); the current plan's reads Current Plan. */
export default function PlansPage() {
  const session = useSession();
  const credits = useCredits();
  const { start, busy } = useBuyFlow();
  const current = credits.data?.user_plan.plan_reference;
  const action = (plan: Plan, isCurrent: boolean) => (
    <SelectPlanButton plan={plan} current={isCurrent} busy={busy} onSelect={(chosen) => void start(chosen)} />
  );
  return (
    <Stack maw={1100} gap="xl">
      <Stack gap="xs">
        <Title order={1}>Plans</Title>
        <Text>Monthly plans, billed each month, and credit packs you buy once.</Text>
        {!session.data && (
          <Text>
            <Anchor component={Link} to="/signup">
              Sign up
            </Anchor>{' '}
            to get started.
          </Text>
        )}
      </Stack>
      <Title order={2}>Monthly plans</Title>
      <PlanGrid types={['postpaid']} currentReference={current} action={action} />
      <Title order={2}>Credit packs</Title>
      <PlanGrid types={['prepaid']} currentReference={current} action={action} />
      <HowItWorks />
      <Stack>
        <Title order={2}>FAQ</Title>
        <SearchableAnswers answers={faqAnswers} label="Search the FAQs" />
      </Stack>
    </Stack>
  );
}
