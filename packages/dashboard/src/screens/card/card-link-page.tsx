import { Alert, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Elements } from '@stripe/react-stripe-js';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { usePaymentLink, usePaymentsJs } from '../../data/cards';
import { CardForm } from './card-form';

/**
 * Card, opened from a card link (`scrub card add`): no sign-in, the link is the credential. It adds
 * a card to the link's account and nothing else; the page shows nothing of the account.
 */
export default function CardLinkPage() {
  const [params] = useSearchParams();
  const grant = params.get('grant') ?? '';
  const [saved, setSaved] = useState<string | null>(null);
  const link = usePaymentLink(grant);
  const stripe = usePaymentsJs();
  const failed = link.error ?? stripe.error;
  return (
    <Stack maw={560}>
      <Title order={1}>Add a card</Title>
      {saved ? (
        <Alert color="green" title="Card saved" data-testid="card-link-done">
          {saved} You can close this page and go back to the terminal.
        </Alert>
      ) : failed ? (
        <Alert color="red" title="This link cannot be used">
          {errorMessage(failed)}
        </Alert>
      ) : link.data && stripe.data ? (
        <Paper withBorder p="lg" component="section">
          <Text mb="sm">
            This page works once, until {new Date(link.data.expires_at).toLocaleTimeString()}.
          </Text>
          <Elements stripe={stripe.data}>
            <CardForm target={{ referenceCode: undefined, amount: undefined, grant }} onSaved={setSaved} />
          </Elements>
        </Paper>
      ) : (
        <Center py="md">
          <Loader aria-label="Loading the card form" />
        </Center>
      )}
    </Stack>
  );
}
