import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Box,
  Button,
  Input,
  Loader,
  SimpleGrid,
  Stack,
  TextInput,
  useComputedColorScheme,
} from '@mantine/core';
import { PaymentSetupRequestSchema } from '@scrub/contract';
import { CardElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/error-message';
import { FormTextInput } from '../../common/form-fields';
import { saveCard } from '../../data/cards';
import {
  CARD_DECLINED,
  CardRefusedError,
  CONFIRMED_WITH_BANK,
  withBankConfirmation,
} from '../../payments/bank-confirmation';
import { showErrorDialog } from '../../shell/error-dialog';

/** The billing address, with the contract's rules (the seed's messages: 'Name is required'...). */
const BillingSchema = PaymentSetupRequestSchema.pick({
  customer_name: true,
  line1: true,
  line2: true,
  city: true,
  state: true,
  postal_code: true,
  country: true,
});
type BillingInput = z.input<typeof BillingSchema>;
type Billing = z.output<typeof BillingSchema>;

export interface CardTarget {
  referenceCode: string | undefined;
  amount: number | undefined;
  /** A card link's grant (`/card?grant=`): the card is saved on the link's account, no session needed. */
  grant?: string | undefined;
}

/** The billing address: name, street, city, state, postal code and country. */
function BillingFields({ form }: { form: UseFormReturn<BillingInput, unknown, Billing> }) {
  const errors = form.formState.errors;
  return (
    <>
      <FormTextInput form={form} name="customer_name" label="Name on card" required autoComplete="cc-name" />
      <FormTextInput form={form} name="line1" label="Address line 1" required autoComplete="address-line1" />
      <FormTextInput form={form} name="line2" label="Address line 2" autoComplete="address-line2" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormTextInput form={form} name="city" label="City" required autoComplete="address-level2" />
        <FormTextInput form={form} name="state" label="State" required autoComplete="address-level1" />
        <FormTextInput form={form} name="postal_code" label="Postal code" autoComplete="postal-code" />
        <TextInput
          label="Country (2-letter code)"
          maxLength={2}
          {...form.register('country', { setValueAs: (value: string) => value.toUpperCase() })}
          error={errors.country ? 'Country is a 2-letter code, such as US' : undefined}
          autoComplete="country"
        />
      </SimpleGrid>
    </>
  );
}

/**
 * The card form: billing address and the card provider's card element (Stripe Elements, or the
 * service's stand-in with the same API). Submit makes a payment method in the browser, then saves it
 * (POST /payment/setup), with 3-D Secure when the bank asks. Answers the service's message.
 */
export function CardForm({ target, onSaved }: { target: CardTarget; onSaved: (message: string) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const scheme = useComputedColorScheme('light');
  const [cardError, setCardError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const form = useForm<BillingInput, unknown, Billing>({
    resolver: zodResolver(BillingSchema),
    mode: 'all',
    defaultValues: {
      customer_name: '',
      line1: '',
      line2: '',
      city: '',
      state: '',
      postal_code: '',
      country: 'US',
    },
  });
  const errors = form.formState.errors;

  const save = async (billing: Billing) => {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setProcessing(true);
    try {
      const created = await stripe.createPaymentMethod({
        type: 'card',
        card,
        billing_details: {
          name: billing.customer_name,
          address: {
            line1: billing.line1,
            line2: billing.line2,
            city: billing.city,
            state: billing.state,
            postal_code: billing.postal_code,
            country: billing.country,
          },
        },
      });
      if (created.error) throw new CardRefusedError(created.error.message ?? CARD_DECLINED);
      const message = await withBankConfirmation((setupIntentId) => {
        const input = {
          ...billing,
          payment_method_id: created.paymentMethod.id,
          ...(target.referenceCode ? { reference_code: target.referenceCode } : {}),
          ...(target.amount ? { amount: target.amount } : {}),
          ...(setupIntentId ? { setup_intent_id: setupIntentId } : {}),
        };
        return saveCard(input, target.grant);
      });
      onSaved(message === CONFIRMED_WITH_BANK ? 'Card Added Successfully' : message);
    } catch (error) {
      showErrorDialog('Error', errorMessage(error, CARD_DECLINED));
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={form.handleSubmit(save)} noValidate aria-label="Card details">
      <Stack>
        <BillingFields form={form} />
        <Input.Wrapper label="Card" required error={cardError}>
          <Box
            mt={4}
            p="sm"
            style={{
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 'var(--mantine-radius-sm)',
            }}
            data-testid="card-element"
          >
            <CardElement
              options={{
                hidePostalCode: true,
                style: { base: { fontSize: '16px', color: scheme === 'dark' ? '#e9ecef' : '#212529' } },
              }}
              onChange={(event) => setCardError(event.error?.message ?? null)}
            />
          </Box>
        </Input.Wrapper>
        {!stripe && <Alert color="gray">Loading the card form...</Alert>}
        <Button
          type="submit"
          disabled={!stripe || processing || Object.keys(errors).length > 0}
          leftSection={processing ? <Loader size="xs" color="currentColor" /> : undefined}
        >
          {processing ? 'Processing...' : 'Save card'}
        </Button>
      </Stack>
    </form>
  );
}
