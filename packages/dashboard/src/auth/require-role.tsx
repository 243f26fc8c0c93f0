import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useOwnRole } from '../data/account';
import { readActing } from './acting';
import { hasRole } from './use-session';

/**
 * Screens for some roles only: anyone else is sent to `/` (seed 2: "/admin needs an admin token,
 * otherwise redirects to /"), and so is an admin acting as a user. The service refuses such calls
 * whatever the screen does; this keeps people from screens that could only fail.
 */
export function RequireRole({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const role = useOwnRole();
  if (role.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (!hasRole(role.data, roles) || readActing()) return <Navigate to="/" replace />;
  return children;
}
