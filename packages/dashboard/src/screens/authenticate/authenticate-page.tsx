import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { useConfirmWithBank, usePaymentLink } from '../../data/cards';

/**
 * Confirm a payment with the bank (3-D Secure), opened from the link `scrub buy` prints: no
 * sign-in, the link is the credential. Stripe.js runs the bank's check; the command that waits
 * then reports the credits.
 */
export default function AuthenticatePage() {
  const [params] = useSearchParams();
  const grant = params.get('grant') ?? '';
  const link = usePaymentLink(grant);
  const confirm = useConfirmWithBank();
  const clientSecret = link.data?.client_secret;
  return (
    <Stack maw={560}>
      <Title order={1}>Confirm your payment</Title>
      {link.isPending ? (
        <Center py="md">
          <Loader aria-label="Loading the payment" />
        </Center>
      ) : link.error || !clientSecret ? (
        <Alert color="red" title="This link cannot be used">
          {link.error ? errorMessage(link.error) : 'This link is not for a payment.'}
        </Alert>
      ) : confirm.isSuccess ? (
        <Alert color="green" title="Payment confirmed" data-testid="authenticate-done">
          Your bank confirmed the payment. You can close this page and go back to the terminal.
        </Alert>
      ) : (
        <>
          <Text>Your bank asks you to confirm this payment. Nothing is charged until you do.</Text>
          {confirm.error && <Alert color="red">{errorMessage(confirm.error)}</Alert>}
          <Button onClick={() => confirm.mutate(clientSecret)} loading={confirm.isPending}>
            Confirm with my bank
          </Button>
        </>
      )}
    </Stack>
  );
}
