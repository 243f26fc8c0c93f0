import type { PlanStatus } from '@scrub/sdk';
import { setAccountStatus } from '../data/account';
import { confirmAction } from './confirm-action';

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
