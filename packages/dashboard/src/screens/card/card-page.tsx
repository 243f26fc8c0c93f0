import { Alert, Anchor, Center, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Elements } from '@stripe/react-stripe-js';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { useCards, usePaymentsJs } from '../../data/cards';
import { usePlans } from '../../data/plans';
import { dollars } from '../../payments/format';
import { purchaseComplete, refreshAfterPayment } from '../../payments/purchase-complete';
import { showErrorDialog } from '../../shell/error-dialog';
import { CardForm } from './card-form';
import { SavedCards } from './saved-cards';

/** The seed's $1 verification, from the catalogue's intro plan: shown until the account has a card. */
function IntroOffer() {
  const plans = usePlans();
  const intro = plans.data?.find((plan) => plan.plan_type === 'intro');
  if (!intro) return null;
  return (
    <Alert color="blue" variant="light" title="Card verification" data-testid="intro-offer">
      Adding your first card takes a {dollars(intro.plan_amount)} verification charge, which gives you{' '}
      {(intro.plan_credits ?? 0).toLocaleString('en-US')} credits plus a{' '}
      {intro.bonus_credits.toLocaleString('en-US')}
      -credit bonus.
    </Alert>
  );
}

/** Card: add a payment method (query selectedAmount, reference_code, returnUrl), and the saved cards. */
export default function CardPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const plans = usePlans();
  const cards = useCards();
  const stripe = usePaymentsJs();
  const referenceCode = params.get('reference_code') ?? undefined;
  const amount = Number(params.get('selectedAmount')) || undefined;
  const plan = plans.data?.find((p) => p.plan_reference === referenceCode);

  const onSaved = (message: string) => {
    showErrorDialog('Success', message);
    if (plan?.plan_type === 'postpaid') {
      // The card was the missing piece: back to the buy flow, which confirms the subscription.
      refreshAfterPayment();
      navigate(`/purchase?plan=${plan.plan_reference}`);
    } else if (plan?.plan_type === 'prepaid') {
      purchaseComplete(
        { plan_reference: plan.plan_reference, amount: amount ?? plan.plan_amount, credits_added: null },
        navigate,
      );
    } else {
      refreshAfterPayment();
      navigate('/accountInfo');
    }
  };

  return (
    <Stack maw={960}>
      <Title order={1}>Card</Title>
      {plan && (
        <Text>
          For {plan.plan_name}
          {amount ? `: ${dollars(amount)}` : ''}. The card is saved, then charged.
        </Text>
      )}
      {cards.data && cards.data.length === 0 && <IntroOffer />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="lg" component="section" aria-labelledby="card-title">
          <Title order={2} size="h4" id="card-title" mb="sm">
            {cards.data?.length ? 'Add or replace a card' : 'Add a card'}
          </Title>
          {stripe.isError && <Alert color="red">{errorMessage(stripe.error)}</Alert>}
          {stripe.isPending && (
            <Center py="md">
              <Loader aria-label="Loading the card form" />
            </Center>
          )}
          {stripe.data && (
            <Elements stripe={stripe.data}>
              <CardForm target={{ referenceCode, amount }} onSaved={onSaved} />
            </Elements>
          )}
        </Paper>
        <Stack>
          <SavedCards />
          <Anchor component={Link} to="/purchase">
            Back to Purchase Credits
          </Anchor>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
