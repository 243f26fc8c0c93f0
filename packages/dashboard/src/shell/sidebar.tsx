import { Button, Stack, Text } from '@mantine/core';
import type { AuthSession } from '@scrub/sdk';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../auth/sign-out';
import { useShownIdentity } from './account-menu';
import { HeaderLinks } from './header-links';

/**
 * The sidebar: display name, Client Performance, Phone log, Suppression list, Webhooks, User Management (staff roles), Admin (admins),
 * Logout. Acting as a user shows the user's sidebar: no staff links.
 */
export function Sidebar({
  session,
  admin = false,
  staff = false,
  onNavigate,
}: {
  session: AuthSession;
  admin?: boolean;
  staff?: boolean;
  onNavigate: () => void;
}) {
  const navigate = useNavigate();
  const shown = useShownIdentity(session);
  return (
    <Stack gap="sm" onClick={(event) => (event.target as HTMLElement).closest('a') && onNavigate()}>
      <Text fw={700} data-testid="sidebar-name">
        {shown.name}
      </Text>
      <Button component={Link} to="/dashboard" variant="light">
        Client Performance
      </Button>
      <Button component={Link} to="/phonelog" variant="light">
        Phone log
      </Button>
      <Button component={Link} to="/suppression" variant="light">
        Suppression list
      </Button>
      <Button component={Link} to="/webhooks" variant="light">
        Webhooks
      </Button>
      {staff && (
        <Button component={Link} to="/users" variant="light">
          User Management
        </Button>
      )}
      {admin && (
        <Button component={Link} to="/admin" variant="light">
          Admin
        </Button>
      )}
      <Button
        variant="default"
        onClick={async () => {
          await signOut();
          navigate('/login');
        }}
      >
        Logout
      </Button>
      <Stack hiddenFrom="md" gap="xs" mt="md">
        <HeaderLinks signedIn admin={admin} vertical />
      </Stack>
    </Stack>
  );
}
