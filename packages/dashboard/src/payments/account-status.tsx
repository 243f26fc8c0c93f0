import type { PlanStatus } from '@scrub/sdk';
import { queryClient } from '../api/query-client';
import { queryKeys } from '../api/query-keys';
import { scrub } from '../api/scrub-client';
import { confirmAction } from './confirm-action';

/**
 * Pauses or resumes the account. With a monthly subscription its billing moves with it (PATCH
 * /subscription, which sets the plan status too); without one, only the plan status changes.
 */
export async function setAccountStatus(status: PlanStatus): Promise<void> {
  const subscription = await scrub.subscription.get();
  if (subscription && subscription.status !== 'canceled') {
    if (status === 'paused') await scrub.subscription.pause();
    else await scrub.subscription.resume();
  } else {
    await scrub.user.setPlanStatus(status);
  }
  for (const key of [queryKeys.credits, queryKeys.user, queryKeys.subscription]) {
    await queryClient.invalidateQueries({ queryKey: key });
  }
}

/**
 * The seeds' Account Confirmation modal: shown wherever a paused account tries to buy or check;
 * Confirm sends the opposite status. Resolves true when the account was activated.
 */
export function openActivateModal(): Promise<boolean> {
  return confirmAction({
    title: 'Account Confirmation',
    message: 'Your account is paused: please activate your account first.',
    confirmLabel: 'Activate',
    action: () => setAccountStatus('active'),
  });
}

/** The account page's Pause / Activate, through the same modal. */
export function openPlanStatusModal(current: PlanStatus): Promise<boolean> {
  if (current === 'paused') return openActivateModal();
  return confirmAction({
    title: 'Account Confirmation',
    message:
      'Pause your account? Billing of your monthly plan stops, and buying and checking numbers are refused until you activate it again.',
    confirmLabel: 'Pause',
    action: () => setAccountStatus('paused'),
  });
}
