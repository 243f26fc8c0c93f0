import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from './use-session';

/** Auth screens: someone already signed in goes to AccountInfo (seed 1, route table). */
export function VisitorsOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (session.data) return <Navigate to="/accountInfo" replace />;
  return children;
}
