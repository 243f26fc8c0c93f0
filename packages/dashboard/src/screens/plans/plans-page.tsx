import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../../auth/use-session';
import { useCredits } from '../../credits/use-credits';
import { faqAnswers } from '../info/faq-answers';
import { SearchableAnswers } from '../info/searchable-answers';
import { HowItWorks } from './how-it-works';
import { PlanGrid } from './plan-grid';

/** Plans, read-only in this release: the purchase flow comes with the payment screens. */
export default function PlansPage() {
  const session = useSession();
  const credits = useCredits();
  return (
    <Stack maw={1100} gap="xl">
      <Stack gap="xs">
        <Title order={1}>Plans</Title>
        <Text>Pay as you go plans, billed monthly, and bulk credit packs.</Text>
        {!session.data && (
          <Text>
            <Anchor component={Link} to="/signup">
              Sign up
            </Anchor>{' '}
            to get started.
          </Text>
        )}
        <Alert color="blue" variant="light">
          Buying plans and credits online is coming soon. Until then, ask support and your credits will be
          added to your account.
        </Alert>
      </Stack>
      <Title order={2}>Pay as you go</Title>
      <PlanGrid types={['postpaid']} currentReference={credits.data?.user_plan.plan_reference} />
      <Title order={2}>Bulk credits</Title>
      <PlanGrid types={['prepaid']} currentReference={credits.data?.user_plan.plan_reference} />
      <HowItWorks />
      <Stack>
        <Title order={2}>FAQ</Title>
        <SearchableAnswers answers={faqAnswers} label="Search the FAQs" />
      </Stack>
    </Stack>
  );
}
