import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { scrub } from '../api/scrub-client';

/** Auth screens: someone already signed in goes to AccountInfo (seed 1, route table). */
export function VisitorsOnly({ children }: { children: ReactNode }) {
  if (scrub.auth.hasSession()) return <Navigate to="/accountInfo" replace />;
  return children;
}
