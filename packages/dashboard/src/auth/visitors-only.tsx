import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from './use-session';

/**
 * Auth screens: someone already signed in goes to AccountInfo (seed 1, route table). The screen
 * shows while the stored session is read, so visitors (nearly everyone here) do not wait for the
 * SDK to load before the form; someone signed in is sent on as soon as the session is known.
 */
export function VisitorsOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.data) return <Navigate to="/accountInfo" replace />;
  return children;
}
