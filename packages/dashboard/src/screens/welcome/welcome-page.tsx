import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Plan } from '@scrub/sdk';
import { Link } from 'react-router';
import { useSession } from '../../auth/use-session';
import { faqAnswers } from '../../common/faq-answers';
import { HowItWorks } from '../../common/how-it-works';
import { PlanGrid, SelectPlanButton } from '../../common/plan-grid';
import { SearchableAnswers } from '../../common/searchable-answers';
import { useCredits } from '../../data/account';
import { useBuyFlow } from '../../payments/use-buy-flow';

const blurbs = [
  { title: 'No-Nonsense Pricing', text: 'One credit checks one number. No setup fees, no minimum term.' },
  { title: 'Fast', text: 'Results in seconds: one number on the spot, a whole CSV while you get a coffee.' },
  { title: 'Easy to Use', text: 'Upload a CSV and download it back with Line Type and DNC columns added.' },
];

/**
 * Welcome: landing and pricing. Each plan card's Select Plan runs the buy flow, with the seed's two
 * modals (Payment Confirmation, Account Confirmation); a visitor goes to Sign-up.
 */
export default function WelcomePage() {
  const session = useSession();
  const credits = useCredits();
  const { start, busy } = useBuyFlow();
  const current = credits.data?.user_plan.plan_reference;
  const action = (plan: Plan, isCurrent: boolean) => (
    <SelectPlanButton plan={plan} current={isCurrent} busy={busy} onSelect={(chosen) => void start(chosen)} />
  );
  return (
    <Stack maw={1100} mx="auto" gap="xl">
      {!session.data && (
        <Alert color="blue" variant="light">
          <Group justify="space-between">
            <Text fw={600}>Takes 10 Seconds To Register an Account!</Text>
            <Button component={Link} to="/signup" size="xs">
              Sign Up
            </Button>
          </Group>
        </Alert>
      )}
      <Stack gap="xs">
        <Title order={1}>Know every number before you dial</Title>
        <Text size="lg">
          Scrub tells you whether a US phone number is mobile, landline, VoIP, toll free or invalid, and
          whether it is on a do-not-call list. Check one number, a CSV of millions, or call the API from your
          CRM.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {blurbs.map((blurb) => (
          <Paper key={blurb.title} withBorder p="md">
            <Title order={2} size="h4">
              {blurb.title}
            </Title>
            <Text size="sm">{blurb.text}</Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Stack id="pricing" component="section" aria-labelledby="pricing-title">
        <Title order={2} id="pricing-title">
          Pricing
        </Title>
        <Title order={3} size="h4">
          Credit packs (prepaid)
        </Title>
        <PlanGrid types={['prepaid']} currentReference={current} action={action} />
        <Title order={3} size="h4">
          Monthly plans (postpaid)
        </Title>
        <PlanGrid types={['postpaid']} currentReference={current} action={action} />
      </Stack>
      <HowItWorks />
      <Stack component="section" aria-labelledby="faq-title">
        <Title order={2} id="faq-title">
          FAQ
        </Title>
        <SearchableAnswers answers={faqAnswers} label="Search the FAQs" />
        <Text>
          More in the{' '}
          <Anchor component={Link} to="/faqs">
            FAQs
          </Anchor>
          .
        </Text>
      </Stack>
    </Stack>
  );
}
