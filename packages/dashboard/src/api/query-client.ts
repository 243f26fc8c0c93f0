import { focusManager, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { readActing, stopActing } from '../auth/acting';
import { showErrorDialog } from '../shell/error-dialog';

/**
 * The seeds' HTTP error rules, in one place: 401 (or a session that cannot be refreshed) signs the
 * user out and goes to Login; 403 shows the Access Denied dialog, except a paused plan's, which opens
 * the Account Confirmation modal. Other errors are shown by the
 * screen that made the call, next to what failed.
 */
async function onGlobalError(error: unknown): Promise<void> {
  // Loaded already: the error came from an SDK call. Imported here to keep the SDK out of the entry chunk.
  const { AuthenticationError, PermissionDeniedError, PlanPausedError, SessionExpiredError } = await import(
    '@scrub/sdk'
  );
  if (error instanceof AuthenticationError || error instanceof SessionExpiredError) {
    // An act-as token that ran out (or a user disabled meanwhile) ends the acting, not the admin's session.
    if (readActing()) stopActing();
    else signedOutHandler?.();
    return;
  }
  // A paused account refused a purchase or a check: the seeds' Account Confirmation modal offers to activate it.
  if (error instanceof PlanPausedError) {
    planPausedHandler?.();
    return;
  }
  // The service's own sentence when it says why (an acting session may not touch the owner's keys).
  if (error instanceof PermissionDeniedError) {
    showErrorDialog(
      'Access Denied',
      error.serviceMessage || 'Access Denied: You do not have permission to perform this action.',
    );
  }
}

let signedOutHandler: (() => void) | undefined;
let planPausedHandler: (() => void) | undefined;

/** Set by the router once it exists: what to do when the API says the session is over. */
export function onSignedOut(handler: () => void): void {
  signedOutHandler = handler;
}

/** Set by the app: what to do when the API refuses a call because the plan is paused. */
export function onPlanPaused(handler: () => void): void {
  planPausedHandler = handler;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error) => void onGlobalError(error) }),
  mutationCache: new MutationCache({ onError: (error) => void onGlobalError(error) }),
  defaultOptions: {
    queries: {
      // The SDK already retries what may pass on a second try.
      retry: false,
      staleTime: 10_000,
    },
  },
});

// The seeds refresh on window focus as well as when the tab becomes visible; TanStack Query
// listens to visibilitychange only by default.
focusManager.setEventListener((setFocused) => {
  const onVisibility = () => setFocused(document.visibilityState === 'visible');
  const onFocus = () => setFocused(true);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', onFocus);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('focus', onFocus);
  };
});
