import type { Plan, PurchaseResult } from '@scrub/sdk';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/error-message';
import { scrub } from '../api/scrub-client';
import { useSession } from '../auth/use-session';
import { showErrorDialog } from '../shell/error-dialog';
import { openActivateModal } from './account-status';
import { pickAmount } from './amount-modal';
import { CONFIRMED_WITH_BANK, withBankConfirmation } from './bank-confirmation';
import { confirmAction } from './confirm-action';
import { cardName, dollars } from './format';
import { purchaseComplete } from './purchase-complete';

function priceText(plan: Plan, amount: number | undefined): string {
  const price = dollars(amount ?? plan.plan_amount);
  return plan.interval ? `${price} a ${plan.interval}` : price;
}

/** Buys a prepaid plan, or starts or switches the monthly plan; 3-D Secure through Stripe.js. */
async function pay(plan: Plan, amount: number | undefined) {
  if (plan.plan_type === 'postpaid') {
    const current = await scrub.subscriptions.get();
    if (current && current.status !== 'canceled') {
      await scrub.subscriptions.switch(plan.plan_reference);
      return { switched: true, credits: null };
    }
    await withBankConfirmation(() => scrub.subscriptions.start(plan.plan_reference));
    return { switched: false, credits: null };
  }
  const result: PurchaseResult | typeof CONFIRMED_WITH_BANK = await withBankConfirmation(() =>
    scrub.purchases.buy({ reference_code: plan.plan_reference, amount, currency: 'usd' }),
  );
  return {
    switched: false,
    message: result === CONFIRMED_WITH_BANK ? 'Payment Complete' : result.message,
    credits: result === CONFIRMED_WITH_BANK ? null : result.credits_added,
  };
}

/**
 * The seeds' buy flow: no session goes to Sign-up; a paused plan opens the Account Confirmation
 * modal; the flexible plans ask for an amount; without a saved card, on to Card with the plan (and
 * amount); with one, the Payment Confirmation, the payment, then purchase complete.
 */
export function useBuyFlow() {
  const navigate = useNavigate();
  const session = useSession();
  const [busy, setBusy] = useState<string | null>(null);

  const start = useCallback(
    async (plan: Plan, presetAmount?: number) => {
      if (!session.data) {
        navigate('/signup');
        return;
      }
      setBusy(plan.plan_reference);
      try {
        const [hasCard, snapshot] = await Promise.all([scrub.cards.hasMethod(), scrub.account.credits()]);
        if (snapshot.user_plan.plan_status === 'paused') {
          await openActivateModal();
          return;
        }
        let amount: number | undefined;
        if (plan.variable) {
          const picked = presetAmount ?? (await pickAmount(plan));
          if (picked === null) return;
          amount = picked;
        }
        if (!hasCard) {
          const query = new URLSearchParams({ reference_code: plan.plan_reference, returnUrl: 'Purchase' });
          if (amount !== undefined) query.set('selectedAmount', String(amount));
          navigate(`/card?${query}`);
          return;
        }
        const card = (await scrub.cards.listMethods()).find((method) => method.is_default);
        let outcome: Awaited<ReturnType<typeof pay>> | undefined;
        const confirmed = await confirmAction({
          title: 'Payment Confirmation',
          message: `${plan.plan_name}: ${priceText(plan, amount)}, charged to your ${card ? cardName(card) : 'default card'}.`,
          confirmLabel: plan.plan_type === 'postpaid' ? 'Subscribe' : 'Pay',
          action: async () => {
            outcome = await pay(plan, amount);
          },
        });
        if (!confirmed || !outcome) return;
        if (outcome.switched) {
          showErrorDialog('Success', `Your plan changes to ${plan.plan_name} from your next billing period.`);
        } else {
          showErrorDialog(outcome.message ?? 'Payment Complete', 'Your payment was successful');
        }
        purchaseComplete(
          {
            plan_reference: plan.plan_reference,
            amount: amount ?? plan.plan_amount,
            credits_added: outcome.credits,
          },
          navigate,
        );
      } catch (error) {
        showErrorDialog('Error!', errorMessage(error));
      } finally {
        setBusy(null);
      }
    },
    [navigate, session.data],
  );
  return { start, busy };
}
