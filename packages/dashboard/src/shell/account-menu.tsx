import { Avatar, Menu, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { AuthSession } from '@scrub/sdk';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../auth/sign-out';

export function displayName(session: AuthSession): string {
  return session.name || session.email.split('@')[0] || session.email;
}

/** The account menu: who is signed in, Manage My Account, SIGN OUT. */
export function AccountMenu({ session }: { session: AuthSession }) {
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        <UnstyledButton data-testid="account-menu">
          {/* The initials are decoration: the button's name is the hidden text. */}
          <Avatar color="blue" radius="xl" aria-hidden>
            {displayName(session).slice(0, 2).toUpperCase()}
          </Avatar>
          <VisuallyHidden>Account menu</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack gap={2} p="xs">
          <Text fw={600}>{displayName(session)}</Text>
          <Text size="sm" c="dimmed">
            {session.email}
          </Text>
        </Stack>
        <Menu.Divider />
        <Menu.Item component={Link} to="/accountInfo">
          Manage My Account
        </Menu.Item>
        <Menu.Item
          color="red"
          onClick={async () => {
            await signOut();
            navigate('/login');
          }}
          data-testid="sign-out"
        >
          SIGN OUT
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
